// Package utf8x checks UTF-8 fast on the short texts of protobuf string
// fields: [Valid] is utf8.Valid, and [CopyJSON] copies text while it
// checks its UTF-8 and finds the first byte a JSON string must escape, in
// one pass. On amd64 with AVX2 both run vector code (utf8x_amd64.s) from
// eight bytes on; elsewhere, on shorter input and with the purego build
// tag, they run the Go code of this file.
//
// Package utf8x imports the standard library and golang.org/x/sys/cpu,
// nothing else: it is a leaf that dynamic and transcode build on.
package utf8x

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// validGeneric is utf8.Valid, faster on short text that is mostly ASCII
// with letters beyond it here and there. It is the portable twin of the
// vector code of utf8x_amd64.s, and Valid calls it wherever that code does
// not run (see utf8x_amd64.go and utf8x_other.go).
//
// It checks eight bytes at a time, jumps straight to the first byte that is
// not ASCII and checks the sequence it leads with one table lookup and one
// 32-bit load, with no branch on the sequence's length. Near the end, the
// loads end at the last byte and are shifted so that the bytes past the end
// read as zero, which no continuation byte matches: the tail needs no
// byte-by-byte loop.
func validGeneric(b []byte) bool {
	n := len(b)
	if n < 8 {
		return validTail(b)
	}
	for i := 0; i < n; {
		var m uint64
		if n-i >= 8 {
			m = binary.LittleEndian.Uint64(b[i:]) & highs
		} else {
			m = binary.LittleEndian.Uint64(b[n-8:]) & highs >> (8 * (8 - (n - i)))
		}
		if m == 0 {
			i += 8
			continue
		}
		i += bits.TrailingZeros64(m) >> 3
		var w uint32
		if n-i >= 4 {
			w = binary.LittleEndian.Uint32(b[i:])
		} else {
			w = binary.LittleEndian.Uint32(b[n-4:]) >> (8 * (4 - (n - i)))
		}
		s := &utf8Lead[w&0x7f]
		if w&s.mask != s.want || uint8(w>>8)-s.lo > s.span {
			return false
		}
		i += int(s.size)
	}
	return true
}

// validTail checks text shorter than a word byte by byte.
func validTail(b []byte) bool {
	for i := 0; i < len(b); {
		if b[i] < 0x80 {
			i++
			continue
		}
		size := RuneLen(b[i:])
		if size == 0 {
			return false
		}
		i += size
	}
	return true
}

// leadSpec says what may follow a lead byte: the bits of the four bytes
// from the lead on that mask must equal want (continuation bytes are
// 10xxxxxx, and the bytes past the sequence are masked out), and the second
// byte must lie in lo..lo+span, which excludes overlong forms, surrogates
// and code points past U+10FFFF.
type leadSpec struct {
	mask, want uint32
	lo, span   uint8
	size       uint8
}

// utf8Lead holds the leadSpec of every byte 0x80..0xFF, indexed by the byte
// less 0x80. Bytes that cannot lead a sequence get a mask no load matches.
var utf8Lead = leadTable()

func leadTable() (t [128]leadSpec) {
	for c := 0x80; c < 0x100; c++ {
		t[c-0x80] = leadFor(byte(c))
	}
	return t
}

func leadFor(c byte) leadSpec {
	s := leadSpec{lo: 0x80, span: 0x3f}
	switch {
	case c < 0xc2 || c > 0xf4:
		return leadSpec{mask: 0, want: 1}
	case c < 0xe0:
		s.mask, s.want, s.size = 0xc000, 0x8000, 2
	case c < 0xf0:
		s.mask, s.want, s.size = 0xc0c000, 0x808000, 3
	default:
		s.mask, s.want, s.size = 0xc0c0c000, 0x80808000, 4
	}
	switch c {
	case 0xe0:
		s.lo, s.span = 0xa0, 0x1f
	case 0xed:
		s.span = 0x1f
	case 0xf0:
		s.lo, s.span = 0x90, 0x2f
	case 0xf4:
		s.span = 0x0f
	}
	return s
}

// RuneLen returns the length of the valid multi-byte sequence that starts
// b, whose first byte is not ASCII, or 0 when it is not valid UTF-8:
// utf8.DecodeRune's rules (no overlong forms, no surrogates, nothing past
// U+10FFFF).
func RuneLen(b []byte) int {
	s := &utf8Lead[b[0]&0x7f]
	if s.size == 0 || int(s.size) > len(b) || b[1]-s.lo > s.span {
		return 0
	}
	for _, c := range b[2:s.size] {
		if c&0xc0 != 0x80 {
			return 0
		}
	}
	return int(s.size)
}

// CopyJSON copies b into to, whose capacity must hold it, and on the way
// checks that b is valid UTF-8 and finds the first byte that a JSON string
// must escape (below 0x20, '"' or '\\'): it reports whether b is valid
// and, when it is, the index of that byte, or len(b) if there is none.
// to[:esc] then holds b[:esc]; the rest of to[:len(b)] may hold anything,
// and to past len(b) is left alone. One pass over b serves all three ends,
// where scanning and then copying would read b twice.
func CopyJSON(to, b []byte) (ok bool, esc int) {
	return copyJSON(b, unsafe.SliceData(to[:len(b)]))
}

// copyJSONGeneric is copyJSON in Go, the twin of the vector code: the
// UTF-8 check of validGeneric, then NextEscape and a copy up to the
// escape. Three passes cost little here, as the text is short.
func copyJSONGeneric(b []byte, to *byte) (ok bool, esc int) {
	if !validGeneric(b) {
		return false, 0
	}
	esc = NextEscape(b, 0)
	copy(unsafe.Slice(to, esc), b)
	return true, esc
}

const (
	ones   = 0x0101010101010101
	highs  = 0x8080808080808080
	spaces = ones * ' '
)

// NextEscape returns the index of the first byte of b from i on that JSON
// must escape (below 0x20, '"' or '\\'), or len(b). It tests eight bytes
// at a time; the last few are tested as the word that ends b, shifted down
// past the bytes already tested with spaces (which need no escape) shifted
// in above them.
func NextEscape(b []byte, i int) int {
	for ; len(b)-i >= 8; i += 8 {
		if m := escapes(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	if i >= len(b) {
		return len(b)
	}
	var x uint64
	if r := len(b) - i; len(b) >= 8 {
		sh := uint(8 * (8 - r))
		x = binary.LittleEndian.Uint64(b[len(b)-8:])>>sh | spaces<<(64-sh)
	} else {
		x = spaces
		for j := len(b) - 1; j >= i; j-- {
			x = x<<8 | uint64(b[j])
		}
	}
	if m := escapes(x); m != 0 {
		return i + bits.TrailingZeros64(m)>>3
	}
	return len(b)
}

// stringEndGeneric is StringEnd in Go, the twin of the vector code: eight
// bytes at a time, the bytes before the first stop or'ed to see whether one
// is not ASCII.
func stringEndGeneric(b []byte) (n int, high bool) {
	var seen uint64
	i := 0
	for ; len(b)-i >= 8; i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		if m := escapes(x); m != 0 {
			k := bits.TrailingZeros64(m) >> 3
			seen |= x & (1<<(8*k) - 1)
			return i + k, seen&highs != 0
		}
		seen |= x
	}
	for ; i < len(b); i++ {
		c := b[i]
		if c < 0x20 || c == '"' || c == '\\' {
			break
		}
		seen |= uint64(c)
	}
	return i, seen&highs != 0
}

// escapes returns a mask with the high bit set of the bytes of x that are
// ASCII and to escape: below 0x20 (less 0x20 they wrap), '"' or '\\' (zero
// after the xor, they wrap less one). Bytes from 0x80 on are masked out by
// their own high bit, and never borrow from the byte above. A byte that
// wraps borrows one from the byte above it, which can set that byte's bit
// too: only the lowest bit set is sure to be an escape.
func escapes(x uint64) uint64 {
	q := x ^ (ones * '"')
	bs := x ^ (ones * '\\')
	return ((x - ones*0x20) | (q - ones) | (bs - ones)) &^ x & highs
}
