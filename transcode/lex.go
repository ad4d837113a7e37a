package transcode

import (
	"unicode/utf8"

	"github.com/rpckit/rpckit/internal/jsonx"
	"github.com/rpckit/rpckit/internal/utf8x"
)

// The lexer: the JSON grammar as protojson's reader accepts it, over the
// input bytes in place. Whitespace is space, tab, CR and LF; literals and
// numbers must end at a delimiter; strings must be valid UTF-8 with no
// control characters, and their escapes are checked as they are scanned.

const (
	swarLo = 0x0101010101010101
	swarHi = 0x8080808080808080
)

// skipWS advances past whitespace and returns the next byte, or 0 at the
// end of the input.
func (d *decoder) skipWS() byte {
	for d.pos < len(d.in) {
		c := d.in[d.pos]
		if c > ' ' || (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
			return c
		}
		d.pos++
	}
	return 0
}

// delimAt reports whether a literal ending at i ends at a delimiter.
func (d *decoder) delimAt(i int) bool { return i >= len(d.in) || !jsonx.IsNotDelim(d.in[i]) }

// literal consumes the literal s (true, false, null) at d.pos.
func (d *decoder) literal(s string) bool {
	end := d.pos + len(s)
	if end > len(d.in) || string(d.in[d.pos:end]) != s || !d.delimAt(end) {
		return false
	}
	d.pos = end
	return true
}

// jsonString is a scanned string: its contents in d.in, quotes excluded.
type jsonString struct {
	start, end int
	esc        bool // contains escapes, so the contents are not the value
}

// scanString scans the string starting at d.pos (a quote) and leaves d.pos
// past its closing quote. utf8x.StringEnd finds each quote, backslash or
// control character and tells whether it passed a byte that is not ASCII;
// if it did, the UTF-8 of the whole string is checked in one call at the
// end. Escapes are ASCII and a multi-byte sequence holds none, so the whole
// is valid exactly when the text between escapes is.
func (d *decoder) scanString() (jsonString, error) {
	in := d.in
	i := d.pos + 1
	s := jsonString{start: i}
	high := false // a byte passed was not ASCII
	for {
		n, h := utf8x.StringEnd(in[i:])
		i += n
		high = high || h
		if i == len(in) {
			if err := d.stringUTF8(s.start, i, high); err != nil {
				return s, err
			}
			return s, d.errEOF(len(in), "unterminated string")
		}
		// Errors keep the order of the text: bad UTF-8 before i first.
		switch c := in[i]; {
		case c == '"':
			if err := d.stringUTF8(s.start, i, high); err != nil {
				return s, err
			}
			s.end = i
			d.pos = i + 1
			return s, nil
		case c == '\\':
			n, err := d.checkEscape(i)
			if err != nil {
				if uerr := d.stringUTF8(s.start, i, high); uerr != nil {
					return s, uerr
				}
				return s, err
			}
			s.esc = true
			i += n
		default:
			if err := d.stringUTF8(s.start, i, high); err != nil {
				return s, err
			}
			return s, d.errAt(i, "invalid character %q in string", rune(c))
		}
	}
}

// stringUTF8 checks the UTF-8 of string contents in[start:end] when high
// says a byte of them is not ASCII; the error names the first byte of the
// first bad sequence.
func (d *decoder) stringUTF8(start, end int, high bool) error {
	if !high || utf8x.Valid(d.in[start:end]) {
		return nil
	}
	in := d.in[:end]
	for i := start; i < end; {
		if in[i] < utf8.RuneSelf {
			i++
			continue
		}
		n := utf8x.RuneLen(in[i:])
		if n == 0 {
			return d.errAt(i, "invalid UTF-8 in string")
		}
		i += n
	}
	return d.errAt(start, "invalid UTF-8 in string") // not reached: Valid and RuneLen agree
}

// checkEscape checks the escape sequence at i and returns its length.
func (d *decoder) checkEscape(i int) (int, error) {
	in := d.in
	if i+1 >= len(in) {
		return 0, d.errEOF(len(in), "unterminated string")
	}
	switch in[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2, nil
	case 'u':
	default:
		return 0, d.errAt(i, "invalid escape code %q in string", in[i:i+2])
	}
	r, ok := jsonx.Hex4(in, i+2)
	if !ok {
		if i+6 > len(in) {
			return 0, d.errEOF(len(in), "unterminated string")
		}
		return 0, d.errAt(i, "invalid escape code %q in string", in[i:i+6])
	}
	if r < 0xd800 || r > 0xdfff {
		return 6, nil
	}
	if i+12 <= len(in) && r < 0xdc00 && in[i+6] == '\\' && in[i+7] == 'u' {
		if r2, ok := jsonx.Hex4(in, i+8); ok && r2 >= 0xdc00 && r2 <= 0xdfff {
			return 12, nil
		}
	}
	return 0, d.surrogateErr(i)
}

// surrogateErr reports the surrogate escape at i that is not the first
// half of a pair: a second half first, a first half followed by anything
// but an escape of a second half, or input that ends before the pair can.
func (d *decoder) surrogateErr(i int) error {
	in := d.in
	r, _ := jsonx.Hex4(in, i+2)
	j := i + 6 // where the second half would be
	if r < 0xdc00 && jsonx.IsEscapePrefix(in[j:]) {
		return d.errEOF(len(in), "unterminated string")
	}
	if r < 0xdc00 && j+2 <= len(in) && in[j] == '\\' && in[j+1] == 'u' {
		if _, ok := jsonx.Hex4(in, j+2); !ok {
			return d.errAt(j, "invalid escape code %q in string", in[j:min(j+6, len(in))])
		}
	}
	return d.errAt(i, "unpaired surrogate %s in string", in[i:i+6])
}

// stringValue returns the value of s: its bytes in the input when it has
// no escapes, else its unescaped copy in d.scratch (valid until the next
// call).
func (d *decoder) stringValue(s jsonString) []byte {
	if !s.esc {
		return d.in[s.start:s.end]
	}
	d.scratch = jsonx.AppendUnescaped(d.scratch[:0], d.in[s.start:s.end])
	return d.scratch
}
