package transcode

import (
	"bytes"
	"encoding/base64"
	"math/rand/v2"
	"testing"
)

// TestDecodeBase64 compares the fast path with encoding/base64 on random
// text over the alphabets, padding and a few strangers.
func TestDecodeBase64(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_=\n!"
	encs := []struct {
		enc    *base64.Encoding
		table  string
		padded bool
	}{
		{base64.StdEncoding, base64Std, true}, {base64.URLEncoding, base64URL, true},
		{base64.RawStdEncoding, base64Std, false}, {base64.RawURLEncoding, base64URL, false},
	}
	for range 200000 {
		src := make([]byte, r.IntN(14))
		for i := range src {
			if r.IntN(4) == 0 {
				src[i] = chars[r.IntN(len(chars))]
			} else {
				src[i] = chars[r.IntN(62)]
			}
		}
		if r.IntN(3) == 0 {
			src = base64.StdEncoding.AppendEncode(nil, src)
		}
		for _, e := range encs {
			want, err := e.enc.DecodeString(string(src))
			dst := make([]byte, e.enc.DecodedLen(len(src)))
			n, ok := decodeBase64(dst, src, e.table, e.padded)
			if ok && (err != nil || !bytes.Equal(dst[:n], want)) {
				t.Fatalf("decodeBase64(%q, padded %v) = %q, encoding/base64: %q, %v", src, e.padded, dst[:n], want, err)
			}
		}
	}
}
