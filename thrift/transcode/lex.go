package transcode

import (
	"unicode/utf8"

	"github.com/rpckit/rpckit/internal/jsonx"
	"github.com/rpckit/rpckit/internal/utf8x"
)

// The lexer: JSON as RFC 8259 has it, over the input in place. Literals
// and numbers end at a delimiter; strings must be UTF-8 with no control
// characters, their escapes checked as they are scanned.

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

// literal consumes the literal s (true, false, null) at d.pos.
func (d *decoder) literal(s string) bool {
	end := d.pos + len(s)
	if end > len(d.in) || string(d.in[d.pos:end]) != s || end < len(d.in) && jsonx.IsNotDelim(d.in[end]) {
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

// scanString scans the string at d.pos (a quote) and leaves d.pos past
// its closing quote.
func (d *decoder) scanString() (jsonString, error) {
	in := d.in
	i := d.pos + 1
	s := jsonString{start: i}
	high := false
	for {
		n, h := utf8x.StringEnd(in[i:])
		i += n
		high = high || h
		if i == len(in) {
			return s, d.errAt(i, "unterminated string")
		}
		switch c := in[i]; {
		case c == '"':
			if high && !utf8x.Valid(in[s.start:i]) {
				return s, d.errAt(s.start-1, "invalid UTF-8 in string")
			}
			s.end = i
			d.pos = i + 1
			return s, nil
		case c == '\\':
			n, err := d.checkEscape(i)
			if err != nil {
				return s, err
			}
			s.esc = true
			i += n
		default:
			return s, d.errAt(i, "invalid character "+quoteRune(rune(c))+" in string")
		}
	}
}

// checkEscape checks the escape sequence at i and returns its length.
func (d *decoder) checkEscape(i int) (int, error) {
	in := d.in
	if i+1 >= len(in) {
		return 0, d.errAt(len(in), "unterminated string")
	}
	switch in[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2, nil
	case 'u':
	default:
		return 0, d.errAt(i, "invalid escape "+quoteBytes(in[i:i+2])+" in string")
	}
	r, ok := jsonx.Hex4(in, i+2)
	if !ok {
		return 0, d.errAt(i, "invalid escape "+quoteBytes(in[i:min(i+6, len(in))])+" in string")
	}
	if r < 0xd800 || r > 0xdfff {
		return 6, nil
	}
	if i+12 <= len(in) && r < 0xdc00 && in[i+6] == '\\' && in[i+7] == 'u' {
		if r2, ok := jsonx.Hex4(in, i+8); ok && r2 >= 0xdc00 && r2 <= 0xdfff {
			return 12, nil
		}
	}
	return 0, d.errAt(i, "unpaired surrogate "+quoteBytes(in[i:i+6])+" in string")
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

// skipValue skips the JSON value at d.pos, nested up to d.depth deep.
func (d *decoder) skipValue() error {
	switch c := d.skipWS(); c {
	case '"':
		_, err := d.scanString()
		return err
	case '{', '[':
		return d.skipNested(c)
	case 't', 'f', 'n':
		if d.literal("true") || d.literal("false") || d.literal("null") {
			return nil
		}
	default:
		if n, ok := jsonx.ScanNumber(d.in[d.pos:]); ok {
			d.pos += n
			return nil
		}
	}
	return d.errUnexpected("a value")
}

func (d *decoder) skipNested(open byte) error {
	if err := d.enter(); err != nil {
		return err
	}
	closer := byte(']')
	if open == '{' {
		closer = '}'
	}
	d.pos++
	if d.skipWS() == closer {
		d.pos++
		d.depth++
		return nil
	}
	for {
		if open == '{' {
			if err := d.objectKey(); err != nil {
				return err
			}
		}
		if err := d.skipValue(); err != nil {
			return err
		}
		if more, err := d.next(closer); err != nil || !more {
			d.depth++
			return err
		}
	}
}

// objectKey consumes an object's key and its colon.
func (d *decoder) objectKey() error {
	if d.skipWS() != '"' {
		return d.errUnexpected("a string key")
	}
	if _, err := d.scanString(); err != nil {
		return err
	}
	return d.colon()
}

func (d *decoder) colon() error {
	if d.skipWS() != ':' {
		return d.errUnexpected("':'")
	}
	d.pos++
	return nil
}

// next consumes the ',' between members or elements, reporting true, or
// the closer that ends them, reporting false.
func (d *decoder) next(closer byte) (bool, error) {
	switch d.skipWS() {
	case ',':
		d.pos++
		return true, nil
	case closer:
		d.pos++
		return false, nil
	}
	return false, d.errUnexpected("',' or '" + string(closer) + "'")
}

func quoteRune(r rune) string {
	b := []byte{'\''}
	if r < ' ' {
		const hex = "0123456789abcdef"
		b = append(b, '\\', 'x', hex[r>>4], hex[r&15])
	} else {
		b = utf8.AppendRune(b, r)
	}
	return string(append(b, '\''))
}

func quoteBytes(b []byte) string { return "\"" + string(b) + "\"" }
