package wire_test

import (
	"bytes"
	"testing"

	"github.com/rpckit/rpckit/wire"
	"google.golang.org/protobuf/encoding/protowire"
)

// nest wraps leaf in length-delimited fields numbered nums, innermost last.
func nest(leaf []byte, nums ...protowire.Number) []byte {
	b := leaf
	for i := len(nums) - 1; i >= 0; i-- {
		b = wire.AppendLen(nil, nums[i], b)
	}
	return b
}

// frames locates the chain of first records numbered nums, returning the
// frames and the innermost payload span.
func frames(t *testing.T, b []byte, nums ...protowire.Number) ([]wire.Frame, int, int) {
	t.Helper()
	var out []wire.Frame
	start, end := 0, len(b)
	for _, n := range nums {
		it := wire.NewIterAt(b, start, end)
		found := false
		for it.Next() {
			if f := it.Field(); f.Num == n {
				out = append(out, f.Frame())
				start, end, found = f.Value, f.ValueEnd, true
				break
			}
		}
		if !found {
			t.Fatalf("field %d not found", n)
		}
	}
	return out, start, end
}

func TestSplice(t *testing.T) {
	sibling := rec(tag(9, protowire.VarintType), vint(7))
	leaf := rec(tag(3, protowire.BytesType), lenb([]byte("abc")), sibling)
	long := bytes.Repeat([]byte("z"), 300)
	tests := []struct {
		name       string
		edit       func(leaf []byte) (start, end int, repl []byte)
		wantLeaves []byte
	}{
		{"replace longer", func([]byte) (int, int, []byte) { return 0, 5, wire.AppendLen(nil, 3, long) },
			rec(wire.AppendLen(nil, 3, long), sibling)},
		{"replace shorter", func([]byte) (int, int, []byte) { return 0, 5, wire.AppendLen(nil, 3, nil) },
			rec(wire.AppendLen(nil, 3, nil), sibling)},
		{"delete", func([]byte) (int, int, []byte) { return 0, 5, nil }, sibling},
		{"insert", func(l []byte) (int, int, []byte) { return len(l), len(l), sibling },
			rec(leaf, sibling)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			prefix := rec(tag(5, protowire.VarintType), vint(1))
			b := rec(prefix, nest(leaf, 1, 2), prefix)
			fr, start, _ := frames(t, b, 1, 2)
			s, e, repl := tc.edit(leaf)
			got := wire.Splice(nil, b, fr, start+s, start+e, repl)
			want := rec(prefix, nest(tc.wantLeaves, 1, 2), prefix)
			if !bytes.Equal(got, want) {
				t.Fatalf("Splice =\n%x\nwant\n%x", got, want)
			}
		})
	}
}

func TestSpliceAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	b := nest(rec(tag(3, protowire.BytesType), lenb([]byte("abc"))), 1, 2)
	fr, start, end := frames(t, b, 1, 2)
	repl := wire.AppendLen(nil, 3, bytes.Repeat([]byte("z"), 200))
	dst := make([]byte, 0, 1024)
	if n := testing.AllocsPerRun(100, func() { _ = wire.Splice(dst[:0], b, fr, start, end, repl) }); n != 0 {
		t.Fatalf("Splice into a large dst allocates %v times", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = wire.Splice(nil, b, fr, start, end, repl) }); n != 1 {
		t.Fatalf("Splice into nil allocates %v times, want 1", n)
	}
}
