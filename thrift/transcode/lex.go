package transcode

import (
	"unicode/utf8"

	"github.com/rpckit/rpckit/internal/jsonx"
)

// The lexer: JSON as RFC 8259 has it, over the input in place, through the
// scanners of internal/jsonx. Literals and numbers end at a delimiter;
// strings must be UTF-8 with no control characters, their escapes checked
// as they are scanned.

// skipWS advances past whitespace and returns the next byte, or 0 at the
// end of the input.
func (d *decoder) skipWS() byte { return jsonx.SkipSpace(d.in, &d.pos) }

// literal consumes the literal s (true, false, null) at d.pos.
func (d *decoder) literal(s string) bool { return jsonx.Literal(d.in, &d.pos, s) }

// scanString scans the string at d.pos (a quote) and leaves d.pos past
// its closing quote.
func (d *decoder) scanString() (jsonx.String, error) {
	s, f := jsonx.ScanString(d.in, &d.pos)
	if f.Kind != jsonx.NoFault {
		return s, d.stringErr(s, f)
	}
	return s, nil
}

// stringErr reports the fault f of the string s; bad UTF-8 is reported at
// the string's opening quote, and only once it is closed.
func (d *decoder) stringErr(s jsonx.String, f jsonx.Fault) error {
	in, i := d.in, f.At
	switch f.Kind {
	case jsonx.Unterminated:
		return d.errAt(len(in), "unterminated string")
	case jsonx.BadChar:
		return d.errAt(i, "invalid character "+quoteRune(rune(in[i]))+" in string")
	case jsonx.BadEscape:
		return d.errAt(i, "invalid escape "+quoteBytes(in[i:i+2])+" in string")
	case jsonx.BadHex:
		return d.errAt(i, "invalid escape "+quoteBytes(in[i:min(i+6, len(in))])+" in string")
	case jsonx.LoneSurrogate:
		return d.errAt(i, "unpaired surrogate "+quoteBytes(in[i:i+6])+" in string")
	}
	return d.errAt(s.Start-1, "invalid UTF-8 in string")
}

// stringValue returns the value of s: its bytes in the input when it has
// no escapes, else its unescaped copy in d.scratch (valid until the next
// call).
func (d *decoder) stringValue(s jsonx.String) []byte { return s.Value(d.in, &d.scratch) }

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
