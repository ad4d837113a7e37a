package jsonx

import (
	"bytes"
	"unicode/utf8"
)

// IsNotDelim reports whether c may continue a literal or a number.
func IsNotDelim(c byte) bool {
	return c == '-' || c == '+' || c == '.' || c == '_' ||
		('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}

// IsEscapePrefix reports whether b, shorter than a \uXXXX escape, could be
// the start of one: input that ends there may go on to complete it.
func IsEscapePrefix(b []byte) bool {
	if len(b) >= 6 {
		return false
	}
	for k, c := range b {
		switch {
		case k == 0 && c != '\\', k == 1 && c != 'u':
			return false
		case k >= 2 && !IsHex(c):
			return false
		}
	}
	return true
}

func IsHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// Hex4 parses the four hex digits at in[i:].
func Hex4(in []byte, i int) (rune, bool) {
	if i+4 > len(in) {
		return 0, false
	}
	var r rune
	for _, c := range in[i : i+4] {
		v := c - '0'
		if v > 9 {
			v = c | 0x20 - 'a' + 10 // a letter in lower case, from 10
			if v < 10 || v > 15 {
				return 0, false
			}
		}
		r = r<<4 | rune(v)
	}
	return r, true
}

// AppendUnescaped appends the value of the escaped string contents raw,
// whose escapes are known to be valid.
func AppendUnescaped(dst, raw []byte) []byte {
	for {
		j := bytes.IndexByte(raw, '\\')
		if j < 0 {
			return append(dst, raw...)
		}
		var n int
		dst, n = appendUnescape(append(dst, raw[:j]...), raw[j:])
		raw = raw[j+n:]
	}
}

// appendUnescape appends the value of the escape at the start of e and
// returns its length.
func appendUnescape(dst, e []byte) ([]byte, int) {
	switch c := e[1]; c {
	case 'b', 'f', 'n', 'r', 't':
		return append(dst, unescapes[c-'b']), 2
	case 'u':
		return appendUnicodeEscape(dst, e)
	default:
		return append(dst, c), 2
	}
}

// unescapes holds the values of the escapes \b to \t at their letter
// less 'b' (the others are not read).
const unescapes = "\b---\f-------\n---\r-\t"

// appendUnicodeEscape appends the value of the \uXXXX escape at the
// start of e, or of the surrogate pair of two such, and returns its length.
func appendUnicodeEscape(dst, e []byte) ([]byte, int) {
	r, _ := Hex4(e, 2)
	if r < 0xd800 || r > 0xdfff {
		return utf8.AppendRune(dst, r), 6
	}
	r2, _ := Hex4(e, 8)
	return utf8.AppendRune(dst, (r-0xd800)<<10|(r2-0xdc00)+0x10000), 12
}

// ScanNumber returns the length of the JSON number at b[0:], as protojson's
// reader scans it: an optional minus, digits without a leading zero, an
// optional fraction, an optional exponent (which, when more input follows,
// may have no digits), then a delimiter or the end of b.
func ScanNumber(b []byte) (int, bool) {
	n, ok := scanInteger(b)
	if !ok {
		return 0, false
	}
	n, ok = scanExponent(b, scanFraction(b, n))
	if !ok || n < len(b) && IsNotDelim(b[n]) {
		return 0, false
	}
	return n, true
}

// scanInteger returns the length of the integer part of the number at b,
// its sign included.
func scanInteger(b []byte) (int, bool) {
	n := 0
	if len(b) > 0 && b[0] == '-' {
		n = 1
	}
	if n >= len(b) || b[n]-'0' > 9 {
		return 0, false
	}
	if b[n] == '0' {
		return n + 1, true
	}
	return digitsEnd(b, n+1), true
}

// scanFraction returns where the fraction of the number at b, if any,
// ends, its integer part ending at n.
func scanFraction(b []byte, n int) int {
	if n+1 < len(b) && b[n] == '.' && '0' <= b[n+1] && b[n+1] <= '9' {
		return digitsEnd(b, n+2)
	}
	return n
}

// scanExponent returns where the exponent of the number at b, if any, ends,
// the rest of the number ending at n.
func scanExponent(b []byte, n int) (int, bool) {
	if n+1 >= len(b) || b[n] != 'e' && b[n] != 'E' {
		return n, true
	}
	n++
	if b[n] == '+' || b[n] == '-' {
		n++
		if n == len(b) {
			return 0, false
		}
	}
	return digitsEnd(b, n), true
}

// digitsEnd returns the end of the decimal digits at b[i:].
func digitsEnd(b []byte, i int) int {
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	return i
}

// LineCol returns the 1-based line and column (in runes) of offset off
// in b, as protojson counts them.
func LineCol(b []byte, off int) (line, col int) {
	b = b[:min(off, len(b))]
	last := bytes.LastIndexByte(b, '\n')
	return bytes.Count(b, []byte{'\n'}) + 1, utf8.RuneCount(b[last+1:]) + 1
}
