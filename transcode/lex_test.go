package transcode

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"
	"unicode/utf8"

	"github.com/rpckit/rpckit/internal/jsonx"
)

// TestScanStringUTF8 checks whole strings against utf8.Valid, with the
// special bytes at every place of the 32-byte blocks the scanner reads: a
// plain prefix of up to 69 bytes moves them across the first two blocks.
func TestScanStringUTF8(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := []string{"a", "é", "東", "😀", "\xff", "\xed\xa0\x80", "\xc0\x80", "\x01", "\\n", "\\u00e9", "\\", "\"", "\xe2\x82"}
	for range 50000 {
		body := bytes.Repeat([]byte{'x'}, r.IntN(70))
		for range r.IntN(20) {
			body = append(body, alphabet[r.IntN(len(alphabet))]...)
		}
		in := append(append([]byte{'"'}, body...), '"')
		d := decoder{in: in}
		s, err := d.scanString()
		unescaped := err == nil && !s.Esc
		if unescaped && !utf8.Valid(in[s.Start:s.End]) {
			t.Fatalf("scanString accepts invalid UTF-8 %q", in)
		}
		if err == nil && d.pos != s.End+1 {
			t.Fatalf("scanString(%q) ends at %d, string at %d", in, d.pos, s.End)
		}
	}
}

// refScanString is scanString done one byte at a time: the end of the
// string, or the first fault in the order of the text.
func refScanString(d *decoder) (jsonx.String, error) {
	in := d.in
	s := jsonx.String{Start: d.pos + 1}
	for i := s.Start; ; {
		if i >= len(in) {
			return s, d.errEOF(len(in), "unterminated string")
		}
		switch c := in[i]; {
		case c == '"':
			s.End, d.pos = i, i+1
			return s, nil
		case c == '\\':
			n, k := jsonx.EscapeLen(in, i)
			if k != jsonx.NoFault {
				return s, d.stringErr(s, jsonx.Fault{Kind: k, At: i})
			}
			s.Esc = true
			i += n
		case c < ' ':
			return s, d.errAt(i, "invalid character %q in string", rune(c))
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRune(in[i:])
			if r == utf8.RuneError && n <= 1 {
				return s, d.errAt(i, "invalid UTF-8 in string")
			}
			i += n
		default:
			i++
		}
	}
}

// TestScanStringReference holds scanString to refScanString on random
// strings of runes, escapes, bad bytes and control characters, with or
// without their closing quote, and with text after them: the same end,
// or the same error at the same offset.
func TestScanStringReference(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	alphabet := []string{"a", "plain text ", "é", "東", "😀", "\xff", "\xed\xa0\x80", "\xc0\x80", "\x01", "\t",
		"\\n", "\\u00e9", "\\ud83d\\ude00", "\\ud83d", "\\x", "\\", "\"", "\xe2\x82", "\x80", "\x7f"}
	for range 100000 {
		in := []byte{'"'}
		for range r.IntN(40) {
			in = append(in, alphabet[r.IntN(len(alphabet))]...)
		}
		if r.IntN(4) > 0 {
			in = append(in, '"')
		}
		if r.IntN(2) == 0 {
			in = append(in, ", \"grüße\xff\": 1}"...)
		}
		for _, short := range []bool{false, true} {
			got, want := decoder{in: in, short: short}, decoder{in: in, short: short}
			gs, gerr := got.scanString()
			ws, werr := refScanString(&want)
			var ge, we *Error
			switch {
			case (gerr == nil) != (werr == nil):
				t.Fatalf("scanString(%q) error %v, reference %v", in, gerr, werr)
			case gerr == nil && (gs != ws || got.pos != want.pos):
				t.Fatalf("scanString(%q) = %+v ending at %d, reference %+v at %d", in, gs, got.pos, ws, want.pos)
			case errors.As(gerr, &ge) != errors.As(werr, &we):
				t.Fatalf("scanString(%q) error %v, reference %v", in, gerr, werr)
			case ge != nil && (ge.Offset != we.Offset || ge.Msg != we.Msg):
				t.Fatalf("scanString(%q) error %q at %d, reference %q at %d", in, ge.Msg, ge.Offset, we.Msg, we.Offset)
			}
		}
	}
}
