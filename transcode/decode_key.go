package transcode

import (
	"encoding/binary"

	"github.com/rpckit/rpckit/dynamic"
)

// keyWords is a field's JSON name and the closing quote of its key as two
// little-endian words, zero-padded, and the mask of their bytes, for
// nextKey to compare a key with in two masked words; all zero when the two
// take more than 16 bytes.
type keyWords struct {
	key, mask [2]uint64
	n         int // the length of the name and the quote
}

// jsonKeyWords returns the keyWords of t's fields, in t.Fields order.
func jsonKeyWords(t *dynamic.Type) []keyWords {
	ws := make([]keyWords, len(t.Fields))
	for i, f := range t.Fields {
		ws[i] = keyWordsOf(f.JSONName + `"`)
	}
	return ws
}

// keyWordsOf returns the keyWords of k, a name and its closing quote.
func keyWordsOf(k string) keyWords {
	if len(k) > 16 {
		return keyWords{}
	}
	var b, m [16]byte
	copy(b[:], k)
	for i := range len(k) {
		m[i] = 0xff
	}
	return keyWords{
		key:  [2]uint64{binary.LittleEndian.Uint64(b[:8]), binary.LittleEndian.Uint64(b[8:])},
		mask: [2]uint64{binary.LittleEndian.Uint64(m[:8]), binary.LittleEndian.Uint64(m[8:])},
		n:    len(k),
	}
}

// match reports whether a JSON object key whose text after the opening
// quote starts with the little-endian words w0 and w1 is the field's: it
// returns the length of the name and the quote, 0 when the key is another,
// and -1 when the name is longer than 15 bytes, which it does not check.
func (k *keyWords) match(w0, w1 uint64) int {
	switch {
	case k.mask[0] == 0:
		return -1
	case w0&k.mask[0] != k.key[0] || w1&k.mask[1] != k.key[1]:
		return 0
	}
	return k.n
}
