package transcode

import (
	"encoding/binary"
	"math/bits"
)

// The layout of the output: compact by default, or protojson's multi-line
// form with Indent: every member and element on a line of its own, "key":
// value with one space, empty objects and arrays as {} and [].
//
// Whether a member is the first of its object is read off the output: only
// an object just opened ends in '{' (an array in '['), so nothing else
// needs tracking and a rolled-back member leaves no trace.

func (e *encoder) open(c byte) {
	e.out = append(e.out, c)
	e.level++
}

func (e *encoder) close(c byte) {
	e.level--
	if e.indent != "" {
		if last := e.out[len(e.out)-1]; last != '{' && last != '[' {
			e.newline()
		}
	}
	e.out = append(e.out, c)
}

// key writes the separator and the key of f's member.
func (e *encoder) key(f *fieldPlan) {
	k := f.jsonKey
	if e.protoNames {
		k = f.protoKey
	}
	if e.indent == "" {
		if e.out[len(e.out)-1] == '{' {
			k = k[1:]
		}
		e.out = append(e.out, k...)
		return
	}
	e.keyIndent(k)
}

// rawKey is key for a literal `,"name":`.
func (e *encoder) rawKey(k string) {
	if e.indent == "" {
		if e.out[len(e.out)-1] == '{' {
			k = k[1:]
		}
		e.out = append(e.out, k...)
		return
	}
	e.keyIndent([]byte(k))
}

func (e *encoder) keyIndent(k []byte) {
	if e.out[len(e.out)-1] != '{' {
		e.out = append(e.out, ',')
	}
	e.newline()
	e.out = append(e.out, k[1:]...)
	e.out = append(e.out, ' ')
}

// member writes the separator before a member whose key the caller
// writes, and keyEnd the colon after it.
func (e *encoder) member() {
	if e.out[len(e.out)-1] != '{' {
		e.out = append(e.out, ',')
	}
	if e.indent != "" {
		e.newline()
	}
}

func (e *encoder) keyEnd() {
	if e.indent != "" {
		e.out = append(e.out, ':', ' ')
		return
	}
	e.out = append(e.out, ':')
}

// elem writes the separator before an array element.
func (e *encoder) elem() {
	if e.out[len(e.out)-1] != '[' {
		e.out = append(e.out, ',')
	}
	if e.indent != "" {
		e.newline()
	}
}

func (e *encoder) newline() {
	e.out = append(e.out, '\n')
	for range e.level {
		e.out = append(e.out, e.indent...)
	}
}

// str writes s as a JSON string escaped as protojson escapes: '"', '\\'
// and the control characters, with \b \f \n \r \t where they exist and
// \u00XX (lower case hex) otherwise; nothing else. It checks that s is
// UTF-8 on the way and reports false if not.
//
// Eight bytes are tested at a time: a byte from 0x80 on sets its high bit
// in the mask, as does a byte below 0x20 (less 0x20 it wraps), and one
// equal to '"' or '\\' (zero after an xor, it wraps less one); the other
// bytes below 0x80 stay below it after the subtractions. Borrows can set
// bits above a true hit but never below the first, so the lowest bit set
// is the first byte to look at. Runs that need nothing are copied whole.
func (e *encoder) str(s []byte) bool {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	out := append(e.out, '"')
	start := 0 // s[start:i] is yet to be copied
	for i := 0; i < len(s); {
		if len(s)-i >= 8 {
			x := binary.LittleEndian.Uint64(s[i:])
			q := x ^ (ones * '"')
			bs := x ^ (ones * '\\')
			m := ((x - ones*0x20) | x | (q - ones) | (bs - ones)) & highs
			if m == 0 {
				i += 8
				continue
			}
			i += bits.TrailingZeros64(m) >> 3
		}
		c := s[i]
		switch {
		case c >= 0x80:
			n := runeLen(s[i:])
			if n == 0 {
				return false
			}
			i += n
		case c < 0x20 || c == '"' || c == '\\':
			out = appendEscape(append(out, s[start:i]...), c)
			i++
			start = i
		default:
			i++
		}
	}
	e.out = append(append(out, s[start:]...), '"')
	return true
}

// runeLen returns the length of the valid UTF-8 sequence of two to four
// bytes that starts s, or 0: no overlong forms, surrogates or code points
// past U+10FFFF, as utf8.DecodeRune accepts.
func runeLen(s []byte) int {
	c := s[0]
	lo, hi := byte(0x80), byte(0xbf) // range of the second byte
	n := 0
	switch {
	case c < 0xc2:
		return 0
	case c < 0xe0:
		n = 2
	case c < 0xf0:
		n = 3
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
