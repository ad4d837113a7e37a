package jsonx

import (
	"bytes"
	"encoding/base64"
	"math/rand/v2"
	"testing"
)

// TestDecodeBase64 holds DecodeBase64 to enc.Decode on the encodings of
// random bytes in all four alphabets, broken now and then by padding,
// line breaks and bad characters.
func TestDecodeBase64(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	encs := []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding}
	for range 100000 {
		enc := encs[r.IntN(len(encs))]
		b := make([]byte, r.IntN(60))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		src := []byte(enc.EncodeToString(b))
		if r.IntN(3) == 0 && len(src) > 0 {
			src[r.IntN(len(src))] = "=\n\r-_+/!A"[r.IntN(9)]
		}
		if r.IntN(8) == 0 {
			src = src[:r.IntN(len(src)+1)]
		}
		size := enc.DecodedLen(len(src))
		want := make([]byte, size)
		wn, werr := enc.Decode(want, src)
		got := make([]byte, size)
		gn, gerr := DecodeBase64(enc, got, src)
		if (werr == nil) != (gerr == nil) || werr == nil && (gn != wn || !bytes.Equal(got[:gn], want[:wn])) {
			t.Fatalf("%q: got %d %x %v, want %d %x %v", src, gn, got[:max(gn, 0)], gerr, wn, want[:max(wn, 0)], werr)
		}
		if werr != nil && gerr.Error() != werr.Error() {
			t.Fatalf("%q: error %v, want %v", src, gerr, werr)
		}
	}
}
