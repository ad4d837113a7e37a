package transcode

import (
	"math/rand/v2"
	"testing"

	"github.com/rpckit/rpckit/wire"
	"google.golang.org/protobuf/encoding/protowire"
)

// TestUvarint decodes varints of every length, at the end of the input
// and with more after them, truncated and overflowing, as wire.Varint does.
func TestUvarint(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for range 200000 {
		v := r.Uint64() >> r.IntN(64)
		b := protowire.AppendVarint(nil, v)
		if r.IntN(4) == 0 {
			b = b[:r.IntN(len(b)+1)]
		}
		if r.IntN(8) == 0 && len(b) > 0 {
			b[r.IntN(len(b))] |= 0x80
		}
		b = append(b, make([]byte, r.IntN(10))...)
		lead := r.IntN(3)
		b = append(make([]byte, lead), b...)
		got, next := uvarint(b, lead)
		want, wnext, c := wire.Varint(b, lead)
		if c != 0 {
			wnext, want = -1, 0
		}
		if got != want || next != wnext {
			t.Fatalf("% x at %d: got %d, %d; want %d, %d", b, lead, got, next, want, wnext)
		}
	}
}
