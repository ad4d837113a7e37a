//go:build !purego

#include "textflag.h"

// UTF-8 validation with AVX2, 32 bytes at a time, after the lookup method
// of Keiser and Lemire ("Validating UTF-8 In Less Than One Instruction Per
// Byte", 2021).
//
// Every byte c of a block is checked against the three bytes before it,
// p1, p2 and p3 (p1 is the nearest; before the input they are zero):
//
//   - The pair (p1, c) is looked up in three 16-byte tables, by the high
//     nibble of p1, the low nibble of p1 and the high nibble of c (VPSHUFB
//     does sixteen such lookups per lane at once). Each table bit stands
//     for one kind of bad pair; the AND of the three lookups keeps the bits
//     of the kinds the pair is. utf8x_amd64.go builds the tables from a list
//     of the kinds: a lead byte not followed by a continuation byte, a
//     continuation byte after ASCII, the overlong forms, surrogates, code
//     points past U+10FFFF. One bit (0x80) marks instead two continuation
//     bytes in a row, which is right only where c is the third or fourth
//     byte of a sequence.
//   - c must be such a third or fourth byte when p2 >= 0xE0 or p3 >= 0xF0.
//     Subtracting 0x60 from p2 and 0x70 from p3 with unsigned saturation
//     leaves bit 0x80 set exactly then. XORed with the pair bits, bit 0x80
//     survives when the two disagree: a continuation byte where none may be,
//     or a missing one.
//   - The input must not end inside a sequence: its last three bytes must
//     stay below 0xF0, 0xE0 and 0xC0 (last). A saturated subtraction of
//     those limits (less one) from the last block is zero when they do.
//
// Any bit set anywhere means the input is not valid; the bits are ORed
// into one register and tested once at the end.
//
// A block of ASCII bytes needs none of this: its only possible fault is
// that the bytes before it end inside a sequence, which the third check
// applied to the previous block tells. That result is kept in Y10 while
// the blocks go by and counts only when the next block is ASCII or the
// input ends. (The last block, which overlaps the one before it, holds at
// least that block's last byte: when it is ASCII, a sequence left open
// before it has already failed the first two checks in the block before.)
//
// Blocks after the first load p1, p2 and p3 straight from memory at one,
// two and three bytes before the block. The first block shifts its own
// bytes in with zeros (VPERM2I128, VPALIGNR). The last 32 bytes, when the
// length is not a multiple of 32, form one more block that overlaps the one
// before it; it loads its p1..p3 like the others, except when it starts
// less than three bytes into the input (33 or 34 bytes), where it is
// checked as if it began the input and its first three results, which the
// first block has already checked right, are dropped.
//
// Inputs of 16 to 32 bytes fill one register with their first 16 bytes in
// the low lane and their last 16 in the high lane (the two overlap when the
// length is under 32). The high lane's preceding bytes come from the first
// 16 shifted by a VPSHUFB whose control is a window into a table (zero for
// positions before the input), so one pass checks the whole input.
//
// Inputs of 8 to 15 bytes are placed in a 16-byte register followed by
// zeros and checked in one pass.
//
// copyJSON does the same checks, and on the way finds the first byte
// to escape in a JSON string: below 0x20, '"' or '\\', and copies the input
// to the destination (R12) up to it. A signed compare
// with 0x1F (VPCMPGTB) marks the bytes 0x20..0x7F, the ASCII bytes that are
// not control characters (bytes from 0x80 on are negative); less those
// equal to '"' or '\\' (VPCMPEQB, VPANDN), they are the plain bytes, which
// need nothing. VPMOVMSKB makes that one bit per byte. When every byte of
// a block (or of a short input) is plain, it is ASCII and has no escape,
// which one compare tells; that is the common case. Otherwise the bytes to
// escape are those neither plain nor from 0x80 on (the mask of the ASCII
// test of the UTF-8 check), and the lowest bit set (BSF) is the first.
//
// The copy stores each register as it is loaded, at the same offset of the
// destination: the blocks in order up to the one with the first escape,
// the two halves of a short input, a byte at a time under 8 bytes. Where
// loads overlap the stores do too, with the same bytes, so nothing is
// written past the input's length.
//
// Blocks are taken in order of their start and every block starts at or
// before the end of the one before, so the first block with an escape holds
// the first escape of the input, even where it is the last block and
// overlaps the one before (the bytes they share had none). Once it is
// found, the rest of the input is only validated, by the loop of
// Valid.
//
// The short paths find the escapes in the register as loaded, before any
// bytes are moved or zeros put in (a zero is a control character): for 16
// to 32 bytes, bit j < 16 of the mask is byte j and bit 16+k is byte
// n-16+k; for 8 to 15, bit j < 8 is byte j and bit 8+k is byte n-8+k. When
// the lowest bit set is in the high half, the first escape is there and the
// low half has none, so the index is the bit less 32-n (16-n).
//
// Nothing outside the slice is read. Inputs under 8 bytes are read a byte
// at a time: ASCII (for copyJSON, ASCII that needs no escape) is answered
// at once, anything else goes to the Go code, as does every input when the
// CPU lacks AVX2.

// Offsets into ·avx2Consts (type avx2Table in utf8x_amd64.go).
#define PREV_HI 0
#define PREV_LO 16
#define CUR_HI 32
#define LOW4 48
#define LIMIT 64
#define THIRD 96
#define FOURTH 128
#define HIGH 160
#define SHIFT_MINUS16 176 // the shift table (192) less 16
#define FROM3 224
#define SPREAD 256
#define SPREAD_HI_PLUS16 280 // the high half of the spread table (264) plus 16
#define CTRL_MAX 280
#define QUOTE 312
#define BACKSLASH 344

// Registers:
//   SI  the input, BX its length, DI the offset of the block, R8 the tables
//   Y0  the block; Y1, Y2, Y3 the bytes one, two and three before each
//   Y4, Y5, Y6 scratch
//   Y10 the end check of the last block done; Y11 the errors so far
//   Y12, Y13, Y14 the pair tables; Y15 0x0F in every byte
// and in copyJSON's loop:
//   R9  the first escape found, or the length; CX the escapes of a block
//   R12 the destination
//   Y7, Y8, Y9 0x1F, '"' and '\\' in every byte

#define LOAD_TABLES \
	VBROADCASTI128 PREV_HI(R8), Y14; \
	VBROADCASTI128 PREV_LO(R8), Y13; \
	VBROADCASTI128 CUR_HI(R8), Y12;  \
	VBROADCASTI128 LOW4(R8), Y15

// PREV_FROM_ZERO sets Y1..Y3 for a block Y0 at the start of the input.
#define PREV_FROM_ZERO \
	VPERM2I128 $0x08, Y0, Y0, Y3; \
	VPALIGNR   $15, Y3, Y0, Y1;   \
	VPALIGNR   $14, Y3, Y0, Y2;   \
	VPALIGNR   $13, Y3, Y0, Y3

// PREV_LOAD sets Y1..Y3 for the block at DI >= 3.
#define PREV_LOAD \
	VMOVDQU -1(SI)(DI*1), Y1; \
	VMOVDQU -2(SI)(DI*1), Y2; \
	VMOVDQU -3(SI)(DI*1), Y3

// CHECK_IN leaves in e the errors of the block b given the bytes one, two
// and three before each (p1, p2, p3), with the pair tables in tp, tl, tc,
// 0x0F in every byte of low and t5, t6 scratch: the pair lookups (VPSRLW
// shifts 16-bit words, so each high nibble is masked off from the bits
// shifted in from the byte above it), then the must-continue bits of the
// third and fourth bytes XORed in.
#define CHECK_IN(b, p1, p2, p3, e, t5, t6, tc, tl, tp, low) \
	VPSRLW   $4, p1, e;           \
	VPAND    low, e, e;           \
	VPSHUFB  e, tp, e;            \
	VPAND    low, p1, t5;         \
	VPSHUFB  t5, tl, t5;          \
	VPAND    t5, e, e;            \
	VPSRLW   $4, b, t5;           \
	VPAND    low, t5, t5;         \
	VPSHUFB  t5, tc, t5;          \
	VPAND    t5, e, e;            \
	VPSUBUSB THIRD(R8), p2, t5;   \
	VPSUBUSB FOURTH(R8), p3, t6;  \
	VPOR     t6, t5, t5;          \
	VPAND    HIGH(R8), t5, t5;    \
	VPXOR    t5, e, e

// CHECK is CHECK_IN on the whole registers, CHECK16 on their low lanes.
#define CHECK CHECK_IN(Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y12, Y13, Y14, Y15)
#define CHECK16 CHECK_IN(X0, X1, X2, X3, X4, X5, X6, X12, X13, X14, X15)

// ACCUMULATE adds the errors of a checked block to Y11 and keeps its end
// check in Y10; ASCII_BLOCK does the same for a block of ASCII bytes,
// whose only possible fault is the end check of the block before.
#define ACCUMULATE \
	VPOR     Y4, Y11, Y11; \
	VPSUBUSB LIMIT(R8), Y0, Y10

#define ASCII_BLOCK \
	VPOR  Y10, Y11, Y11; \
	VPXOR Y10, Y10, Y10

// MID_CHECK checks 16 to 32 bytes, b[0:16] in the low lane of Y0 and
// b[n-16:n] in the high one, and leaves the errors in Y4. The bytes before
// the high lane come from X4, the 16 bytes before b[n-16:] (zero before
// b[0]): byte j of X4 is byte j-(32-n) of b[0:16]. The end check is ORed
// in, as the input ends with the high lane.
#define MID_CHECK \
	VPSHUFB    SHIFT_MINUS16(R8)(BX*1), X0, X4; \
	VPERM2I128 $0x08, Y4, Y4, Y3;                \
	VPALIGNR   $15, Y3, Y0, Y1;                  \
	VPALIGNR   $14, Y3, Y0, Y2;                  \
	VPALIGNR   $13, Y3, Y0, Y3;                  \
	LOAD_TABLES;                                 \
	CHECK;                                       \
	VPSUBUSB   LIMIT(R8), Y0, Y5;                \
	VPOR       Y5, Y4, Y4

// SHORT_CHECK checks 8 to 15 bytes: X0 holds b[0:8] and b[n-8:n], which
// a VPSHUFB moves to b[0:n] followed by zeros. The zeros end any sequence
// the input leaves open with a fault, so the end needs no check of its
// own, and the bytes before each byte are the register shifted up. The
// errors are left in X4.
#define SHORT_CHECK \
	MOVQ    $SPREAD_HI_PLUS16, AX;      \
	SUBQ    BX, AX;                     \
	VMOVQ   SPREAD(R8), X1;             \
	VPINSRQ $1, (R8)(AX*1), X1, X1;     \
	VPSHUFB X1, X0, X0;                 \
	VPSLLDQ $1, X0, X1;                 \
	VPSLLDQ $2, X0, X2;                 \
	VPSLLDQ $3, X0, X3;                 \
	VMOVDQU PREV_HI(R8), X14;           \
	VMOVDQU PREV_LO(R8), X13;           \
	VMOVDQU CUR_HI(R8), X12;            \
	VMOVDQU LOW4(R8), X15;              \
	CHECK16

// PLAIN sets CX to one bit per byte of b that is 0x20..0x7F and neither
// '"' nor '\\', given 0x1F, '"' and '\\' in every byte of c1f, cq and cbs
// (registers, or for the first two memory).
#define PLAIN(b, c1f, cq, cbs, r4, r5, r6) \
	VPCMPGTB  c1f, b, r4; \
	VPCMPEQB  cq, b, r5;  \
	VPCMPEQB  cbs, b, r6; \
	VPOR      r6, r5, r5; \
	VPANDN    r4, r5, r4; \
	VPMOVMSKB r4, CX

// DISPATCH loads b into SI (base) and BX (length) and branches on the
// length: under 8 bytes to tiny, without AVX2 to generic (the Go code),
// 8 to 15 to short, over 32 to long; 16 to 32 fall through. R8 points at
// the tables.
#define DISPATCH \
	MOVQ b_base+0(FP), SI;   \
	MOVQ b_len+8(FP), BX;    \
	CMPQ BX, $8;             \
	JB   tiny;               \
	CMPB ·useAVX2(SB), $0;   \
	JEQ  generic;            \
	LEAQ ·avx2Consts(SB), R8; \
	CMPQ BX, $16;            \
	JB   short;              \
	CMPQ BX, $32;            \
	JA   long

// LONG_START loads the tables and clears the errors (Y11) and the end
// check (Y10) for the block loop of a long input.
#define LONG_START \
	LOAD_TABLES;              \
	VPXOR     Y11, Y11, Y11;  \
	VPXOR     Y10, Y10, Y10

// FIRST_BLOCK checks the first block of a long input, in Y0 with its ASCII
// mask in AX, and goes on to first_done.
#define FIRST_BLOCK \
	TESTL     AX, AX;         \
	JZ        first_done;     \
	PREV_FROM_ZERO;           \
	CHECK;                    \
	ACCUMULATE

// BLOCKS checks the blocks of a long input from DI (a multiple of 32
// bytes in) to the end, DX holding the start of the last block, and goes
// on to done; entered at rest_loop. copyJSON also enters it at rest_block
// with a loaded block in Y0 and at last with the last block's ASCII mask
// in AX. The last block overlaps the one before: DI = n-32 there.
#define BLOCKS \
rest_loop:                    \
	CMPQ      DI, DX;         \
	JA        rest_tail;      \
	VMOVDQU   (SI)(DI*1), Y0; \
rest_block:                   \
	VPMOVMSKB Y0, AX;         \
	TESTL     AX, AX;         \
	JZ        rest_ascii;     \
	PREV_LOAD;                \
	CHECK;                    \
	ACCUMULATE;               \
	ADDQ      $32, DI;        \
	JMP       rest_loop;      \
rest_ascii:                   \
	ASCII_BLOCK;              \
	ADDQ      $32, DI;        \
	JMP       rest_loop;      \
rest_tail:                    \
	CMPQ      DI, BX;         \
	JEQ       done;           \
	MOVQ      DX, DI;         \
	VMOVDQU   (SI)(DI*1), Y0; \
	VPMOVMSKB Y0, AX;         \
last:                         \
	TESTL     AX, AX;         \
	JZ        done;           \
	CMPQ      DI, $3;         \
	JB        last_near;      \
	PREV_LOAD;                \
	CHECK;                    \
	JMP       last_checked;   \
last_near:                    \
	PREV_FROM_ZERO;           \
	CHECK;                    \
	VPAND     FROM3(R8), Y4, Y4; \
last_checked:                 \
	ACCUMULATE

// func Valid(b []byte) bool
TEXT ·Valid(SB), NOSPLIT, $0-25
	DISPATCH

	// 16 to 32 bytes: b[0:16] in the low lane, b[n-16:n] in the high.
	VMOVDQU     (SI), X0
	VINSERTI128 $1, -16(SI)(BX*1), Y0, Y0
	VPMOVMSKB   Y0, AX
	TESTL       AX, AX
	JZ          valid
	MID_CHECK
	VPTEST     Y4, Y4
	SETEQ      ret+24(FP)
	VZEROUPPER
	RET

	// 8 to 15 bytes: see SHORT_CHECK.
short:
	VMOVQ     (SI), X0
	VPINSRQ   $1, -8(SI)(BX*1), X0, X0
	VPMOVMSKB X0, AX
	TESTL     AX, AX
	JZ        valid
	SHORT_CHECK
	VPTEST    X4, X4
	SETEQ     ret+24(FP)
	VZEROUPPER
	RET

long:
	LONG_START
	VMOVDQU   (SI), Y0
	VPMOVMSKB Y0, AX
	FIRST_BLOCK

first_done:
	MOVQ $32, DI
	LEAQ -32(BX), DX // the start of the last block
	BLOCKS

done:
	VPOR       Y10, Y11, Y11
	VPTEST     Y11, Y11
	SETEQ      ret+24(FP)
	VZEROUPPER
	RET

valid:
	MOVB       $1, ret+24(FP)
	VZEROUPPER
	RET

	// Under 8 bytes: ASCII is valid; anything else, and any input when the
	// CPU lacks AVX2, goes to the Go code, which takes the same arguments.
tiny:
	XORL AX, AX
	TESTQ BX, BX
	JZ    tiny_ascii

tiny_loop:
	ORB  -1(SI)(BX*1), AL
	DECQ BX
	JNZ  tiny_loop
	TESTB $0x80, AL
	JNZ   generic

tiny_ascii:
	MOVB $1, ret+24(FP)
	RET

generic:
	JMP ·validGeneric(SB)

// func copyJSON(b []byte, to *byte) (ok bool, esc int)
TEXT ·copyJSON(SB), NOSPLIT, $0-48
	MOVQ to+24(FP), R12
	DISPATCH

	// 16 to 32 bytes, as in Valid, after the escapes.
	VMOVDQU      (SI), X0
	VINSERTI128  $1, -16(SI)(BX*1), Y0, Y0
	VMOVDQU      X0, (R12)
	VEXTRACTI128 $1, Y0, -16(R12)(BX*1)
	PLAIN(Y0, CTRL_MAX(R8), QUOTE(R8), BACKSLASH(R8), Y4, Y5, Y6)
	CMPL        CX, $-1
	JEQ         plain
	VPMOVMSKB   Y0, AX
	ORL         AX, CX
	XORL        $-1, CX
	MOVQ        BX, esc+40(FP)
	JNZ         escape32

check32:
	TESTL      AX, AX
	JZ         valid
	MID_CHECK
	VPTEST     Y4, Y4
	SETEQ      ok+32(FP)
	VZEROUPPER
	RET

escape32:
	BSFL    CX, CX
	LEAQ    -32(BX)(CX*1), DX
	CMPL    CX, $16
	CMOVQCC DX, CX
	MOVQ    CX, esc+40(FP)
	JMP     check32

	// 8 to 15 bytes, as in Valid, after the escapes.
short:
	VMOVQ     (SI), X0
	VPINSRQ   $1, -8(SI)(BX*1), X0, X0
	VMOVQ     X0, (R12)
	VPEXTRQ   $1, X0, -8(R12)(BX*1)
	PLAIN(X0, CTRL_MAX(R8), QUOTE(R8), BACKSLASH(R8), X4, X5, X6)
	CMPL      CX, $0xffff
	JEQ       plain
	VPMOVMSKB X0, AX
	ORL       AX, CX
	XORL      $0xffff, CX
	MOVQ      BX, esc+40(FP)
	JNZ       escape16

check16:
	TESTL     AX, AX
	JZ        valid
	SHORT_CHECK
	VPTEST    X4, X4
	SETEQ     ok+32(FP)
	VZEROUPPER
	RET

escape16:
	BSFL    CX, CX
	LEAQ    -16(BX)(CX*1), DX
	CMPL    CX, $8
	CMOVQCC DX, CX
	MOVQ    CX, esc+40(FP)
	JMP     check16

	// Over 32 bytes: Valid's loop with the escapes of each block found
	// first, until a block has one; then Valid's loop itself (BLOCKS). A
	// block of plain bytes is an ASCII block.
long:
	LONG_START
	VMOVDQU   CTRL_MAX(R8), Y7
	VMOVDQU   QUOTE(R8), Y8
	VMOVDQU   BACKSLASH(R8), Y9
	MOVQ      BX, R9
	LEAQ      -32(BX), DX // the start of the last block
	VMOVDQU   (SI), Y0
	VMOVDQU   Y0, (R12)
	PLAIN(Y0, Y7, Y8, Y9, Y4, Y5, Y6)
	CMPL      CX, $-1
	JEQ       first_done
	VPMOVMSKB Y0, AX
	ORL       AX, CX
	XORL      $-1, CX
	JZ        first
	BSFL      CX, R9

first:
	FIRST_BLOCK

first_done:
	MOVQ $32, DI
	CMPQ R9, BX
	JNE  rest_loop

loop:
	CMPQ      DI, DX
	JA        tail
	VMOVDQU   (SI)(DI*1), Y0
	VMOVDQU   Y0, (R12)(DI*1)
	PLAIN(Y0, Y7, Y8, Y9, Y4, Y5, Y6)
	CMPL      CX, $-1
	JEQ       loop_ascii
	VPMOVMSKB Y0, AX
	ORL       AX, CX
	XORL      $-1, CX
	JNZ       found
	PREV_LOAD
	CHECK
	ACCUMULATE
	ADDQ      $32, DI
	JMP       loop

loop_ascii:
	ASCII_BLOCK
	ADDQ  $32, DI
	JMP   loop

found:
	BSFL CX, CX
	LEAQ (DI)(CX*1), R9
	JMP  rest_block

tail:
	CMPQ      DI, BX
	JEQ       done
	MOVQ      DX, DI
	VMOVDQU   (SI)(DI*1), Y0
	VMOVDQU   Y0, (R12)(DI*1)
	PLAIN(Y0, Y7, Y8, Y9, Y4, Y5, Y6)
	CMPL      CX, $-1
	JEQ       done
	VPMOVMSKB Y0, AX
	ORL       AX, CX
	XORL      $-1, CX
	JZ        last
	BSFL      CX, CX
	LEAQ      (DI)(CX*1), R9
	JMP       last

	BLOCKS

done:
	MOVQ       R9, esc+40(FP)
	VPOR       Y10, Y11, Y11
	VPTEST     Y11, Y11
	SETEQ      ok+32(FP)
	VZEROUPPER
	RET

plain:
	MOVQ       BX, esc+40(FP)

valid:
	MOVB       $1, ok+32(FP)
	VZEROUPPER
	RET

	// Under 8 bytes: ASCII that needs no escape (0x20..0x7F but '"' and
	// '\\') is the answer (true, len(b)); anything else, and any input when
	// the CPU lacks AVX2, goes to the Go code.
tiny:
	MOVQ  BX, esc+40(FP)
	TESTQ BX, BX
	JZ    tiny_plain

tiny_loop:
	MOVBLZX -1(SI)(BX*1), AX
	CMPB    AL, $0x20
	JB      generic
	CMPB    AL, $0x7f
	JA      generic
	CMPB    AL, $0x22
	JEQ     generic
	CMPB    AL, $0x5c
	JEQ     generic
	MOVB    AL, -1(R12)(BX*1)
	DECQ    BX
	JNZ     tiny_loop

tiny_plain:
	MOVB $1, ok+32(FP)
	RET

generic:
	JMP ·copyJSONGeneric(SB)

// func StringEnd(b []byte) (n int, high bool)
//
// From 32 bytes on, with AVX2: the stop bytes of each block of 32 are the
// bytes that are neither plain (PLAIN) nor from 0x80 on (VPMOVMSKB); R10
// collects the bytes from 0x80 on before the first stop. The last block
// overlaps the one before: the bytes it shares with it are masked out.
TEXT ·StringEnd(SB), NOSPLIT, $0-33
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), BX
	CMPQ BX, $32
	JB   end_generic
	CMPB ·useAVX2(SB), $0
	JEQ  end_generic
	LEAQ ·avx2Consts(SB), R8
	VMOVDQU CTRL_MAX(R8), Y7
	VMOVDQU QUOTE(R8), Y8
	VMOVDQU BACKSLASH(R8), Y9
	XORL    DI, DI
	XORL    R10, R10
	LEAQ    -32(BX), DX // the start of the last block

end_loop:
	VMOVDQU   (SI)(DI*1), Y0
	PLAIN(Y0, Y7, Y8, Y9, Y4, Y5, Y6)
	VPMOVMSKB Y0, AX
	ORL       AX, CX
	XORL      $-1, CX
	JNZ       end_found
	ORL       AX, R10
	ADDQ      $32, DI
	CMPQ      DI, DX
	JBE       end_loop

	// The last block, at DX; its first DI-DX bytes were done.
	CMPQ      DI, BX
	JEQ       end_none
	MOVQ      DI, CX
	SUBQ      DX, CX
	MOVL      $-1, R11
	SHLL      CX, R11
	MOVQ      DX, DI
	VMOVDQU   (SI)(DI*1), Y0
	PLAIN(Y0, Y7, Y8, Y9, Y4, Y5, Y6)
	VPMOVMSKB Y0, AX
	ORL       AX, CX
	XORL      $-1, CX
	ANDL      R11, AX
	ANDL      R11, CX
	JNZ       end_found
	ORL       AX, R10

end_none:
	MOVQ  BX, n+24(FP)
	TESTL R10, R10
	SETNE high+32(FP)
	VZEROUPPER
	RET

	// CX holds the stop bytes of the block at DI, AX its bytes from 0x80
	// on; those before the first stop count.
end_found:
	BSFL  CX, CX
	MOVL  $1, R11
	SHLL  CX, R11
	DECL  R11
	ANDL  R11, AX
	ORL   AX, R10
	ADDQ  CX, DI
	MOVQ  DI, n+24(FP)
	TESTL R10, R10
	SETNE high+32(FP)
	VZEROUPPER
	RET

end_generic:
	JMP ·stringEndGeneric(SB)
