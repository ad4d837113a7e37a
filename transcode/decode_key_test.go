package transcode

import (
	"encoding/binary"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rpckit/rpckit/dynamic"
)

// TestKeyWordsMatch holds keyWords.match to comparing the text after a key's
// opening quote with the name and a quote: names of every length from 0 to
// 20 against the name itself, its prefixes and extensions, one byte
// changed at every place, and what follows the key.
func TestKeyWordsMatch(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
	for n := range 21 {
		var name strings.Builder
		for range n {
			name.WriteByte(letters[r.IntN(len(letters))])
		}
		f := &dynamic.Field{JSONName: name.String()}
		k := keyWordsOf(f.JSONName + `"`)
		texts := []string{f.JSONName + `"`, f.JSONName + `":1,"other":2}`, f.JSONName + `x":1`}
		if n > 0 {
			texts = append(texts, f.JSONName[:n-1]+`":1,"a":{}}`)
			for i := range n + 1 {
				b := []byte(f.JSONName + `": "value"}`)
				b[i] ^= byte(1 + r.IntN(255))
				texts = append(texts, string(b))
			}
		}
		for _, text := range texts {
			in := []byte(text + strings.Repeat(" ", 16))
			got := k.match(binary.LittleEndian.Uint64(in), binary.LittleEndian.Uint64(in[8:]))
			want := 0
			if strings.HasPrefix(text, f.JSONName+`"`) {
				want = n + 1
			}
			if n > 15 {
				want = -1
			}
			if got != want {
				t.Fatalf("match of name %q on %q = %d, want %d", f.JSONName, text, got, want)
			}
		}
	}
}
