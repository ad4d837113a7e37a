package dynamic

import "encoding/binary"

// validUTF8 is utf8.Valid, faster on text that is mostly ASCII with some
// letters beyond it: it checks eight bytes at a time and decodes the
// multi-byte sequences inline, returning to the fast path after each.
func validUTF8(b []byte) bool {
	n := len(b)
	for i := 0; i < n; {
		if n-i >= 8 && binary.LittleEndian.Uint64(b[i:])&0x8080808080808080 == 0 {
			i += 8
			continue
		}
		c := b[i]
		if c < 0x80 {
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

// runeLen returns the length of the valid multi-byte sequence that starts
// b, or 0 when it is not valid UTF-8 (overlong forms, surrogates and code
// points past U+10FFFF included).
func runeLen(b []byte) int {
	c := b[0]
	switch {
	case c < 0xC2:
		return 0
	case c < 0xE0:
		if len(b) < 2 || b[1]&0xC0 != 0x80 {
			return 0
		}
		return 2
	case c < 0xF0:
		if len(b) < 3 || !secondOK(c, b[1]) || b[2]&0xC0 != 0x80 {
			return 0
		}
		return 3
	case c < 0xF5:
		if len(b) < 4 || !secondOK(c, b[1]) || b[2]&0xC0 != 0x80 || b[3]&0xC0 != 0x80 {
			return 0
		}
		return 4
	}
	return 0
}

// secondOK checks the second byte of a three- or four-byte sequence, whose
// range depends on the first.
func secondOK(c, c1 byte) bool {
	lo, hi := byte(0x80), byte(0xBF)
	switch c {
	case 0xE0:
		lo = 0xA0
	case 0xED:
		hi = 0x9F
	case 0xF0:
		lo = 0x90
	case 0xF4:
		hi = 0x8F
	}
	return lo <= c1 && c1 <= hi
}
