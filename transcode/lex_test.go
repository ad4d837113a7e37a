package transcode

import (
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// TestScanStringUTF8 checks whole strings against utf8.Valid, with the
// special bytes at every place of the eight-byte words.
func TestScanStringUTF8(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := []string{"a", "é", "東", "😀", "\xff", "\xed\xa0\x80", "\xc0\x80", "\x01", "\\n", "\\u00e9", "\\", "\"", "\xe2\x82"}
	for range 50000 {
		var body []byte
		for range r.IntN(20) {
			body = append(body, alphabet[r.IntN(len(alphabet))]...)
		}
		in := append(append([]byte{'"'}, body...), '"')
		d := decoder{in: in}
		s, err := d.scanString()
		unescaped := err == nil && !s.esc
		if unescaped && !utf8.Valid(in[s.start:s.end]) {
			t.Fatalf("scanString accepts invalid UTF-8 %q", in)
		}
		if err == nil && d.pos != s.end+1 {
			t.Fatalf("scanString(%q) ends at %d, string at %d", in, d.pos, s.end)
		}
	}
}
