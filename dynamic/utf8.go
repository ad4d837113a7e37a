package dynamic

import (
	"encoding/binary"
	"unicode/utf8"
)

// validUTF8 is utf8.Valid that returns to checking eight bytes at a time
// after each multi-byte rune, which suits text that is mostly ASCII with
// some letters beyond it.
func validUTF8(b []byte) bool {
	for i := 0; i < len(b); {
		if len(b)-i >= 8 && binary.LittleEndian.Uint64(b[i:])&0x8080808080808080 == 0 {
			i += 8
			continue
		}
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return false
		}
		i += size
	}
	return true
}
