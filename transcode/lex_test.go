package transcode

import (
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// TestUTF8Seq compares the sequence check of the string scanner with
// utf8.DecodeRune on every lead byte with every second byte, and on random
// longer sequences.
func TestUTF8Seq(t *testing.T) {
	check := func(b []byte) {
		t.Helper()
		r, size := utf8.DecodeRune(b)
		want := size
		if r == utf8.RuneError && size <= 1 {
			want = 0
		}
		if got := utf8Seq(b, 0); got != want {
			t.Fatalf("utf8Seq(% x) = %d, utf8.DecodeRune says %d", b, got, want)
		}
	}
	for c0 := 0x80; c0 < 0x100; c0++ {
		check([]byte{byte(c0)})
		for c1 := range 0x100 {
			check([]byte{byte(c0), byte(c1)})
			check([]byte{byte(c0), byte(c1), 0x80, 0x80})
			check([]byte{byte(c0), byte(c1), 0xbf, 0x7f})
			check([]byte{byte(c0), byte(c1), 0x80})
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		b := []byte{byte(0x80 + r.IntN(0x80)), byte(r.IntN(0x100)), byte(r.IntN(0x100)), byte(r.IntN(0x100))}
		check(b[:1+r.IntN(4)])
	}
}

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
