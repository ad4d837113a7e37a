package jsonx

import "unicode/utf8"

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
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// AppendUnescaped appends the value of the escaped string contents raw,
// whose escapes scanString has checked.
func AppendUnescaped(dst, raw []byte) []byte {
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			j := i + 1
			for j < len(raw) && raw[j] != '\\' {
				j++
			}
			dst = append(dst, raw[i:j]...)
			i = j
			continue
		}
		switch c = raw[i+1]; c {
		case 'b':
			c = '\b'
		case 'f':
			c = '\f'
		case 'n':
			c = '\n'
		case 'r':
			c = '\r'
		case 't':
			c = '\t'
		case 'u':
			r, _ := Hex4(raw, i+2)
			i += 6
			if r >= 0xd800 && r <= 0xdfff {
				r2, _ := Hex4(raw, i+2)
				r = (r-0xd800)<<10 | (r2 - 0xdc00) + 0x10000
				i += 6
			}
			dst = utf8.AppendRune(dst, r)
			continue
		}
		dst = append(dst, c)
		i += 2
	}
	return dst
}

// ScanNumber returns the length of the JSON number at b[0:], as protojson's
// reader scans it: an optional minus, digits without a leading zero, an
// optional fraction, an optional exponent (which, when more input follows,
// may have no digits), then a delimiter or the end of b.
func ScanNumber(b []byte) (int, bool) {
	n := 0
	if n < len(b) && b[n] == '-' {
		n++
	}
	switch {
	case n >= len(b):
		return 0, false
	case b[n] == '0':
		n++
	case '1' <= b[n] && b[n] <= '9':
		n++
		for n < len(b) && '0' <= b[n] && b[n] <= '9' {
			n++
		}
	default:
		return 0, false
	}
	if n+1 < len(b) && b[n] == '.' && '0' <= b[n+1] && b[n+1] <= '9' {
		n += 2
		for n < len(b) && '0' <= b[n] && b[n] <= '9' {
			n++
		}
	}
	if n+1 < len(b) && (b[n] == 'e' || b[n] == 'E') {
		n++
		if b[n] == '+' || b[n] == '-' {
			n++
			if n == len(b) {
				return 0, false
			}
		}
		for n < len(b) && '0' <= b[n] && b[n] <= '9' {
			n++
		}
	}
	if n < len(b) && IsNotDelim(b[n]) {
		return 0, false
	}
	return n, true
}

// position returns the 1-based line and column (in runes) of offset off
// in b, as protojson counts them.
func LineCol(b []byte, off int) (line, col int) {
	if off > len(b) {
		off = len(b)
	}
	b = b[:off]
	line = 1
	last := -1
	for i, c := range b {
		if c == '\n' {
			line++
			last = i
		}
	}
	return line, utf8.RuneCount(b[last+1:]) + 1
}
