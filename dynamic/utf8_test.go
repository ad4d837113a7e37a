package dynamic

import (
	"testing"
	"unicode/utf8"
)

func FuzzValidUTF8(f *testing.F) {
	for _, s := range []string{"", "ascii only, long enough", "grüße aus Zürich", "東京", "\xff", "abcdefgh\xc0\x80", "abcdefghé\xed\xa0\x80"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if validUTF8(b) != utf8.Valid(b) {
			t.Fatalf("validUTF8(%q) = %v, utf8.Valid says %v", b, validUTF8(b), utf8.Valid(b))
		}
	})
}
