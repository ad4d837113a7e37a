package wire

import (
	"math/rand/v2"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// TestVarint decodes varints of every length, at the end of the input and
// with more after them, truncated and overflowing, as protowire does: the
// word-at-a-time path and the byte loop both.
func TestVarint(t *testing.T) {
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
		got, next, c := Varint(b, lead)
		want, n := protowire.ConsumeVarint(b[lead:])
		if n < 0 {
			if c == 0 || next >= 0 {
				t.Fatalf("% x at %d: got %d, %d, want an error", b, lead, got, next)
			}
			continue
		}
		if c != 0 || got != want || next != lead+n {
			t.Fatalf("% x at %d: got %d, %d (%v); want %d, %d", b, lead, got, next, c, want, lead+n)
		}
	}
}

// TestVarintEnd holds VarintEnd to protowire on varints of every length at
// every offset, at the end of the input and with more after them: the end
// of one of up to nine bytes, -1 for longer ones and truncated ones.
func TestVarintEnd(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for range 100000 {
		b := protowire.AppendVarint(nil, r.Uint64()>>r.IntN(64))
		if r.IntN(4) == 0 {
			b = b[:r.IntN(len(b)+1)]
		}
		b = append(b, make([]byte, r.IntN(3))...)
		lead := r.IntN(3)
		b = append(make([]byte, lead), b...)
		want := -1
		if _, n := protowire.ConsumeVarint(b[lead:]); n > 0 && n <= 9 {
			want = lead + n
		}
		if got := VarintEnd(b, lead); got != want {
			t.Fatalf("VarintEnd(% x, %d) = %d, want %d", b, lead, got, want)
		}
	}
	if got := VarintEnd([]byte{1}, 1); got != -1 {
		t.Fatalf("VarintEnd at the end of the input = %d, want -1", got)
	}
}
