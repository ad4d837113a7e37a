package transcode

import "github.com/rpckit/rpckit/internal/jsonx"

// The lexer: the JSON grammar as protojson's reader accepts it, over the
// input bytes in place, through the scanners of internal/jsonx. Whitespace
// is space, tab, CR and LF; literals and numbers must end at a delimiter;
// strings must be valid UTF-8 with no control characters, and their escapes
// are checked as they are scanned.

const (
	swarLo = 0x0101010101010101
	swarHi = 0x8080808080808080
)

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

// stringErr reports the fault f of the string s, after bad UTF-8 before
// it: errors keep the order of the text.
func (d *decoder) stringErr(s jsonx.String, f jsonx.Fault) error {
	if f.High {
		if j := s.Start + jsonx.InvalidUTF8(d.in[s.Start:f.At]); j < f.At {
			return d.errAt(j, "invalid UTF-8 in string")
		}
	}
	in, i := d.in, f.At
	switch f.Kind {
	case jsonx.Unterminated:
		return d.errEOF(len(in), "unterminated string")
	case jsonx.BadChar:
		return d.errAt(i, "invalid character %q in string", rune(in[i]))
	case jsonx.BadEscape:
		return d.errAt(i, "invalid escape code %q in string", in[i:i+2])
	case jsonx.BadHex:
		if i+6 > len(in) {
			return d.errEOF(len(in), "unterminated string")
		}
		return d.errAt(i, "invalid escape code %q in string", in[i:i+6])
	case jsonx.LoneSurrogate:
		return d.surrogateErr(i)
	}
	return d.errAt(i, "invalid UTF-8 in string")
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
func (d *decoder) stringValue(s jsonx.String) []byte { return s.Value(d.in, &d.scratch) }
