package gateway

import (
	"bytes"
	"encoding/base64"
	"testing"
)

// FuzzWebRequest feeds arbitrary bodies to the gRPC-Web request decoder,
// binary and base64: it must return messages or an error, never panic, and
// the messages must be the frames' payloads.
func FuzzWebRequest(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 2, 8, 1}, false)
	f.Add([]byte("AAAAAAIIAQ=="), true)
	f.Add([]byte("AAAAAA==AgAB"), true)
	f.Add([]byte{0x80, 0, 0, 0, 0}, false)
	f.Add([]byte{1, 0, 0, 0, 1, 0}, false)
	f.Add([]byte{0, 0xff, 0xff, 0xff, 0xff}, false)
	f.Fuzz(func(t *testing.T, body []byte, text bool) {
		r := bytes.NewReader(body)
		msgs, err := readWebFrames(r, 1<<16)
		if text {
			msgs, err = readWebFrames(newWebTextReader(bytes.NewReader(body)), 1<<16)
		}
		if err != nil {
			return
		}
		var again []byte
		for _, m := range msgs {
			again = append(again, 0, byte(len(m)>>24), byte(len(m)>>16), byte(len(m)>>8), byte(len(m)))
			again = append(again, m...)
		}
		want := body
		if text {
			want = decodeQuanta(t, body)
		}
		if !bytes.Equal(again, want) {
			t.Fatalf("frames re-encode to % x, body was % x", again, want)
		}
	})
}

// decodeQuanta decodes base64 four characters at a time.
func decodeQuanta(t *testing.T, s []byte) []byte {
	var out []byte
	for i := 0; i+4 <= len(s); i += 4 {
		b, err := base64.StdEncoding.DecodeString(string(s[i : i+4]))
		if err != nil {
			t.Fatalf("decoder accepted bad base64 %q", s[i:i+4])
		}
		out = append(out, b...)
	}
	return out
}
