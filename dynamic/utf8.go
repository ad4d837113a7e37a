package dynamic

import (
	"encoding/binary"
	"math/bits"
)

// validUTF8Generic is utf8.Valid, faster on short text that is mostly ASCII
// with letters beyond it here and there. It is the portable twin of the
// vector code of utf8_amd64.s, and validUTF8 calls it wherever that code
// does not run (see utf8_amd64.go and utf8_other.go).
//
// It checks eight bytes at a time, jumps straight to the first byte that is
// not ASCII and checks the sequence it leads with one table lookup and one
// 32-bit load, with no branch on the sequence's length. Near the end, the
// loads end at the last byte and are shifted so that the bytes past the end
// read as zero, which no continuation byte matches: the tail needs no
// byte-by-byte loop.
func validUTF8Generic(b []byte) bool {
	n := len(b)
	if n < 8 {
		return validTail(b)
	}
	for i := 0; i < n; {
		var m uint64
		if n-i >= 8 {
			m = binary.LittleEndian.Uint64(b[i:]) & 0x8080808080808080
		} else {
			m = binary.LittleEndian.Uint64(b[n-8:]) & 0x8080808080808080 >> (8 * (8 - (n - i)))
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
		size := runeLen(b[i:])
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

// runeLen returns the length of the valid multi-byte sequence that starts
// b, or 0 when it is not valid UTF-8 (overlong forms, surrogates and code
// points past U+10FFFF included).
func runeLen(b []byte) int {
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
