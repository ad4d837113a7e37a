//go:build amd64 && !purego

package utf8x

import "golang.org/x/sys/cpu"

// useAVX2 reports whether the CPU (and the OS, which must save the wide
// registers) supports AVX2, which the vector code of utf8x_amd64.s needs.
// Only the assembly reads it, which staticcheck does not see.
//
//lint:ignore U1000 read by utf8x_amd64.s
var useAVX2 = cpu.X86.HasAVX2

// Valid reports whether b is valid UTF-8, as utf8.Valid does.
//
// It is written in assembly (utf8x_amd64.s) so that a call costs one call:
// with AVX2 it runs the vector code on inputs of 8 bytes or more; inputs
// under 8 bytes of ASCII it accepts itself; anything else, and everything
// on a CPU without AVX2, it hands to the Go code. Starting the vector code
// at 8 bytes takes about a quarter less time on the strings of the Medium
// fixture, most of them 8 to 31 bytes long, than starting it at 16 and a
// third less than at 32.
//
//go:noescape
func Valid(b []byte) bool

// copyJSON is CopyJSON with the destination as a pointer to its first
// byte. Like Valid it is written in assembly: one pass of the vector code
// with AVX2 from 8 bytes on, each block stored to to as it is loaded until
// the one with the first escape; short plain ASCII copied and answered at
// once; the Go code for the rest.
//
//go:noescape
func copyJSON(b []byte, to *byte) (ok bool, esc int)

// StringEnd returns the index of the first byte of b that ends a run of
// JSON string text, a quote, a backslash or a control character (below
// 0x20), or len(b) if there is none; and whether a byte before it is not
// ASCII. It checks no UTF-8: text with a byte that is not ASCII is for the
// caller to check, after the run. In assembly from 32 bytes on with AVX2,
// the Go code for the rest.
//
//go:noescape
func StringEnd(b []byte) (n int, high bool)

// The vector code looks at each byte c together with the byte p before it
// (zero before the first byte) and classifies the pair (p, c) with three
// 16-entry table lookups: one by the high nibble of p, one by its low nibble
// and one by the high nibble of c. Each bit of an entry stands for one kind
// of bad pair; the bit survives the AND of the three lookups only when all
// three nibbles fit that kind. A kind therefore has to be a product of three
// nibble sets, and two kinds can share a bit only when their union still is
// one: F5..FF followed by a continuation byte is split between the bits of
// F4 90..BF and F0 80..8F so that the eight bits suffice.
const (
	pairTooShort  = 1 << iota // a lead byte not followed by a continuation byte
	pairTooLong               // a continuation byte after an ASCII byte
	pairOverlong3             // E0 80..9F: a three-byte form of a code point below U+0800
	pairTooLarge              // F4 90..BF (past U+10FFFF), F5..FF 90..BF (never lead bytes)
	pairSurrogate             // ED A0..BF: U+D800..U+DFFF
	pairOverlong2             // C0, C1 with a continuation: a two-byte form of ASCII
	pairOverlong4             // F0 80..8F (a four-byte form below U+10000), F5..FF 80..8F
	pairTwoConts              // two continuation bytes: right only as the third or fourth byte of a sequence
)

// nibbleSet is a set of nibble values, bit v for the value v.
type nibbleSet uint16

// nibbles is the set lo..hi.
func nibbles(lo, hi int) nibbleSet { return nibbleSet(1<<(hi+1) - 1<<lo) }

const anyNibble = nibbleSet(0xffff)

// pairKinds lists, for each bit, the nibble sets of the bad pairs it marks:
// the high and low nibbles of the first byte and the high nibble of the
// second.
var pairKinds = [...]struct {
	bit                 byte
	prevHi, prevLo, cur nibbleSet
}{
	{pairTooShort, nibbles(0xc, 0xf), anyNibble, nibbles(0x0, 0x7) | nibbles(0xc, 0xf)},
	{pairTooLong, nibbles(0x0, 0x7), anyNibble, nibbles(0x8, 0xb)},
	{pairOverlong3, nibbles(0xe, 0xe), nibbles(0x0, 0x0), nibbles(0x8, 0x9)},
	{pairTooLarge, nibbles(0xf, 0xf), nibbles(0x4, 0xf), nibbles(0x9, 0xb)},
	{pairSurrogate, nibbles(0xe, 0xe), nibbles(0xd, 0xd), nibbles(0xa, 0xb)},
	{pairOverlong2, nibbles(0xc, 0xc), nibbles(0x0, 0x1), nibbles(0x8, 0xb)},
	{pairOverlong4, nibbles(0xf, 0xf), nibbles(0x0, 0x0) | nibbles(0x5, 0xf), nibbles(0x8, 0x8)},
	{pairTwoConts, nibbles(0x8, 0xb), anyNibble, nibbles(0x8, 0xb)},
}

// avx2Consts holds the tables and constants of utf8x_amd64.s, which reads
// them at the offsets given there: keep the two in step. Only the assembly
// reads it, which staticcheck does not see.
//
//lint:ignore U1000 read by utf8x_amd64.s
var avx2Consts = makeAVX2Consts()

type avx2Table struct {
	prevHi, prevLo, cur [16]byte // offsets 0, 16, 32: the pair tables
	low4                [16]byte // 48: 0x0F, the low-nibble mask
	limit               [32]byte // 64: the largest byte each position of the last block may hold
	third               [32]byte // 96: 0x60, see utf8x_amd64.s
	fourth              [32]byte // 128: 0x70
	high                [32]byte // 160: 0x80
	shift               [32]byte // 192: 16 times 0x80, then 0..15
	from3               [32]byte // 224: three 0x00, then 0xFF
	spread              [24]byte // 256: 0..7, then 8..15, then eight 0x80
	ctrlMax             [32]byte // 280: 0x1F, the largest control character
	quote               [32]byte // 312: '"'
	backslash           [32]byte // 344: '\\'
}

func makeAVX2Consts() (t avx2Table) {
	for _, k := range pairKinds {
		for v := range 16 {
			if k.prevHi&(1<<v) != 0 {
				t.prevHi[v] |= k.bit
			}
			if k.prevLo&(1<<v) != 0 {
				t.prevLo[v] |= k.bit
			}
			if k.cur&(1<<v) != 0 {
				t.cur[v] |= k.bit
			}
		}
	}
	for i := range 16 {
		t.low4[i] = 0x0f
		t.shift[i], t.shift[16+i] = 0x80, byte(i)
		t.spread[i] = byte(i)
	}
	for i := 16; i < 24; i++ {
		t.spread[i] = 0x80
	}
	for i := range 32 {
		t.limit[i], t.third[i], t.fourth[i], t.high[i] = 0xff, 0x60, 0x70, 0x80
		t.from3[i] = 0xff
		t.ctrlMax[i], t.quote[i], t.backslash[i] = 0x1f, '"', '\\'
	}
	t.from3[0], t.from3[1], t.from3[2] = 0, 0, 0
	// The last three bytes of the input must not begin a sequence longer
	// than what is left: no lead byte last, no three- or four-byte lead
	// second to last, no four-byte lead third to last.
	t.limit[29], t.limit[30], t.limit[31] = 0xef, 0xdf, 0xbf
	return t
}
