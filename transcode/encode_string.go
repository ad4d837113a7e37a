package transcode

import (
	"encoding/binary"
	"math/bits"
)

// JSON strings are written as protojson writes them: '"', '\\' and the
// control characters escaped, with \b \f \n \r \t where they exist and
// \u00XX (lower case hex) otherwise; nothing else. The bytes are checked
// to be UTF-8 on the way: scanPlain passes over what needs nothing eight
// bytes at a time, and runs that need nothing are copied whole.

// str writes s as a JSON string, or reports false, having written nothing,
// if s is not UTF-8.
func (e *encoder) str(s []byte) bool {
	out := append(e.out, '"')
	start := 0 // s[start:i] is yet to be copied
	for i := scanPlain(s, 0); i < len(s); i = scanPlain(s, i) {
		if c := s[i]; c >= 0x80 {
			// A rune scanPlain left: longer than three bytes, across
			// its words or invalid.
			n := runeLen(s[i:])
			if n == 0 {
				return false
			}
			i += n
			continue
		}
		out = appendEscape(append(out, s[start:i]...), s[i])
		i++
		start = i
	}
	e.set(append(append(out, s[start:]...), '"'))
	return true
}

// scanPlain returns the index of the first byte of s from i on that str
// must look at, or len(s): one to escape, or one that starts a rune that
// plainRun does not pass. The last few bytes are tested as the eight that
// end s, shifted down past those already done, with spaces shifted in.
func scanPlain(s []byte, i int) int {
	for len(s)-i >= 8 {
		x := binary.LittleEndian.Uint64(s[i:])
		if m := specials(x); m != 0 {
			k := plainRun(x, m)
			if i += k; k < 8 {
				return i
			}
			continue
		}
		i += 8
	}
	if i >= len(s) {
		return len(s)
	}
	x := tail(s, i)
	m := specials(x)
	if m == 0 {
		return len(s)
	}
	return min(i+plainRun(x, m), len(s))
}

// tail returns the last len(s)-i < 8 bytes of s as the low bytes of a word,
// spaces above them.
func tail(s []byte, i int) uint64 {
	r := len(s) - i
	sh := uint(8 * (8 - r))
	if len(s) >= 8 {
		return binary.LittleEndian.Uint64(s[len(s)-8:])>>sh | spaces<<(64-sh)
	}
	x := uint64(spaces)
	for j := len(s) - 1; j >= i; j-- {
		x = x<<8 | uint64(s[j])
	}
	return x
}

// plainRun returns how many bytes at the start of the word x need nothing
// (m is specials(x), not zero): it stops at a byte to escape and at a byte
// from 0x80 on that does not start a valid sequence of two or three bytes
// within x, and skips those that do. Only ASCII bytes borrow in specials,
// so the lowest bit of m past a rune is exact too.
func plainRun(x, m uint64) int {
	for m != 0 {
		k := bits.TrailingZeros64(m) >> 3
		y := x >> (8 * k)
		switch c := byte(y); {
		case y&0xc0e0 == 0x80c0 && c >= 0xc2:
			k += 2
		case y&0xc0c0f0 == 0x8080e0 && (c != 0xe0 || byte(y>>8) >= 0xa0) && (c != 0xed || byte(y>>8) < 0xa0):
			k += 3
		default:
			return k
		}
		if k >= 8 {
			return k
		}
		m &= ^uint64(0) << (8 * k)
	}
	return 8
}

const (
	ones   = 0x0101010101010101
	highs  = 0x8080808080808080
	spaces = ones * ' '
)

// specials returns a mask with the high bit set of each byte of x that
// str looks at: from 0x80 on (its own high bit), below 0x20 (less 0x20 it
// wraps), '"' or '\\' (zero after an xor, it wraps less one); the other
// bytes stay below 0x80 after the subtractions. A borrow from a byte that
// is one can set the bit of the byte above it too, so only the lowest bit
// set is sure to be one.
func specials(x uint64) uint64 {
	q := x ^ (ones * '"')
	bs := x ^ (ones * '\\')
	return ((x - ones*0x20) | x | (q - ones) | (bs - ones)) & highs
}

// runeLen returns the length of the valid UTF-8 sequence of two to four
// bytes that starts s, or 0: no overlong forms, surrogates or code points
// past U+10FFFF, as utf8.DecodeRune accepts.
func runeLen(s []byte) int {
	c := s[0]
	if c < 0xe0 {
		if c >= 0xc2 && len(s) >= 2 && s[1]&0xc0 == 0x80 {
			return 2
		}
		return 0
	}
	lo, hi := byte(0x80), byte(0xbf) // range of the second byte
	n := 3
	switch {
	case c < 0xf0:
		if c == 0xe0 {
			lo = 0xa0
		} else if c == 0xed {
			hi = 0x9f
		}
	case c < 0xf5:
		n = 4
		if c == 0xf0 {
			lo = 0x90
		} else if c == 0xf4 {
			hi = 0x8f
		}
	default:
		return 0
	}
	if len(s) < n || s[1] < lo || s[1] > hi {
		return 0
	}
	for _, b := range s[2:n] {
		if b&0xc0 != 0x80 {
			return 0
		}
	}
	return n
}

func appendEscape(out []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(out, '\\', c)
	case '\b':
		return append(out, '\\', 'b')
	case '\f':
		return append(out, '\\', 'f')
	case '\n':
		return append(out, '\\', 'n')
	case '\r':
		return append(out, '\\', 'r')
	case '\t':
		return append(out, '\\', 't')
	}
	const hex = "0123456789abcdef"
	return append(out, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
}
