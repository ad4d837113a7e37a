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
//     of the kinds the pair is. utf8_amd64.go builds the tables from a list
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
// Nothing outside the slice is read. Inputs under 8 bytes are the caller's
// to handle.

// Offsets into ·avx2Consts (type avx2Table in utf8_amd64.go).
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

// Registers:
//   SI  the input, BX its length, DI the offset of the block, R8 the tables
//   Y0  the block; Y1, Y2, Y3 the bytes one, two and three before each
//   Y4, Y5, Y6 scratch
//   Y10 the end check of the last block done; Y11 the errors so far
//   Y12, Y13, Y14 the pair tables; Y15 0x0F in every byte

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

// CHECK leaves in Y4 the errors of the block Y0 given Y1..Y3: the pair
// lookups (VPSRLW shifts 16-bit words, so each high nibble is masked off
// from the bits shifted in from the byte above it), then the must-continue
// bits of the third and fourth bytes XORed in.
#define CHECK \
	VPSRLW   $4, Y1, Y4;          \
	VPAND    Y15, Y4, Y4;         \
	VPSHUFB  Y4, Y14, Y4;         \
	VPAND    Y15, Y1, Y5;         \
	VPSHUFB  Y5, Y13, Y5;         \
	VPAND    Y5, Y4, Y4;          \
	VPSRLW   $4, Y0, Y5;          \
	VPAND    Y15, Y5, Y5;         \
	VPSHUFB  Y5, Y12, Y5;         \
	VPAND    Y5, Y4, Y4;          \
	VPSUBUSB THIRD(R8), Y2, Y5;   \
	VPSUBUSB FOURTH(R8), Y3, Y6;  \
	VPOR     Y6, Y5, Y5;          \
	VPAND    HIGH(R8), Y5, Y5;    \
	VPXOR    Y5, Y4, Y4

// CHECK16 is CHECK on the low lanes only.
#define CHECK16 \
	VPSRLW   $4, X1, X4;          \
	VPAND    X15, X4, X4;         \
	VPSHUFB  X4, X14, X4;         \
	VPAND    X15, X1, X5;         \
	VPSHUFB  X5, X13, X5;         \
	VPAND    X5, X4, X4;          \
	VPSRLW   $4, X0, X5;          \
	VPAND    X15, X5, X5;         \
	VPSHUFB  X5, X12, X5;         \
	VPAND    X5, X4, X4;          \
	VPSUBUSB THIRD(R8), X2, X5;   \
	VPSUBUSB FOURTH(R8), X3, X6;  \
	VPOR     X6, X5, X5;          \
	VPAND    HIGH(R8), X5, X5;    \
	VPXOR    X5, X4, X4

// func validUTF8AVX2Asm(b []byte) bool
TEXT ·validUTF8AVX2Asm(SB), NOSPLIT, $0-25
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), BX
	LEAQ ·avx2Consts(SB), R8
	CMPQ BX, $16
	JB   short
	CMPQ BX, $32
	JA   long

	// 16 to 32 bytes: b[0:16] in the low lane, b[n-16:n] in the high.
	VMOVDQU     (SI), X0
	VINSERTI128 $1, -16(SI)(BX*1), Y0, Y0
	VPMOVMSKB   Y0, AX
	TESTL       AX, AX
	JZ          valid

	// X4 = the 16 bytes before b[n-16:], zero before b[0]: byte j of X4
	// is byte j-(32-n) of b[0:16].
	VPSHUFB    SHIFT_MINUS16(R8)(BX*1), X0, X4
	VPERM2I128 $0x08, Y4, Y4, Y3
	VPALIGNR   $15, Y3, Y0, Y1
	VPALIGNR   $14, Y3, Y0, Y2
	VPALIGNR   $13, Y3, Y0, Y3
	LOAD_TABLES
	CHECK
	VPSUBUSB   LIMIT(R8), Y0, Y5
	VPOR       Y5, Y4, Y4
	VPTEST     Y4, Y4
	SETEQ      ret+24(FP)
	VZEROUPPER
	RET

	// 8 to 15 bytes: b[0:8] and b[n-8:n] in one register, then moved by a
	// VPSHUFB to b[0:n] followed by zeros. The zeros end any sequence the
	// input leaves open with a fault, so the end needs no check of its own,
	// and the bytes before each byte are the register shifted up.
short:
	VMOVQ     (SI), X0
	VPINSRQ   $1, -8(SI)(BX*1), X0, X0
	VPMOVMSKB X0, AX
	TESTL     AX, AX
	JZ        valid
	MOVQ      $SPREAD_HI_PLUS16, AX
	SUBQ      BX, AX
	VMOVQ     SPREAD(R8), X1
	VPINSRQ   $1, (R8)(AX*1), X1, X1
	VPSHUFB   X1, X0, X0
	VPSLLDQ   $1, X0, X1
	VPSLLDQ   $2, X0, X2
	VPSLLDQ   $3, X0, X3
	VMOVDQU   PREV_HI(R8), X14
	VMOVDQU   PREV_LO(R8), X13
	VMOVDQU   CUR_HI(R8), X12
	VMOVDQU   LOW4(R8), X15
	CHECK16
	VPTEST    X4, X4
	SETEQ     ret+24(FP)
	VZEROUPPER
	RET

long:
	LOAD_TABLES
	VPXOR     Y11, Y11, Y11
	VPXOR     Y10, Y10, Y10
	VMOVDQU   (SI), Y0
	VPMOVMSKB Y0, AX
	TESTL     AX, AX
	JZ        first_done
	PREV_FROM_ZERO
	CHECK
	VPOR      Y4, Y11, Y11
	VPSUBUSB  LIMIT(R8), Y0, Y10

first_done:
	MOVQ $32, DI
	LEAQ -32(BX), DX // the start of the last block

loop:
	CMPQ      DI, DX
	JA        tail
	VMOVDQU   (SI)(DI*1), Y0
	VPMOVMSKB Y0, AX
	TESTL     AX, AX
	JZ        loop_ascii
	PREV_LOAD
	CHECK
	VPOR      Y4, Y11, Y11
	VPSUBUSB  LIMIT(R8), Y0, Y10
	ADDQ      $32, DI
	JMP       loop

loop_ascii:
	VPOR  Y10, Y11, Y11
	VPXOR Y10, Y10, Y10
	ADDQ  $32, DI
	JMP   loop

tail:
	CMPQ      DI, BX
	JEQ       done
	MOVQ      DX, DI
	VMOVDQU   (SI)(DI*1), Y0
	VPMOVMSKB Y0, AX
	TESTL     AX, AX
	JZ        done
	CMPQ      DI, $3
	JB        tail_near
	PREV_LOAD
	CHECK
	JMP       tail_checked

tail_near:
	PREV_FROM_ZERO
	CHECK
	VPAND FROM3(R8), Y4, Y4

tail_checked:
	VPOR     Y4, Y11, Y11
	VPSUBUSB LIMIT(R8), Y0, Y10
	JMP      done

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
