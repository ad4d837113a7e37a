package wire_test

import (
	"bytes"
	"testing"

	"github.com/rpckit/rpckit/wire"
	"google.golang.org/protobuf/encoding/protowire"
)

func addSeeds(f *testing.F) {
	for _, tc := range wellFormed {
		f.Add(tc.b)
	}
	for _, tc := range malformed {
		if len(tc.b) < 1000 {
			f.Add(tc.b)
		}
	}
}

// FuzzWireIter holds the iterator against protowire: both accept the same
// inputs and agree on every record.
func FuzzWireIter(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		it := wire.NewIter(b)
		count, off := 0, 0
		for it.Next() {
			fl := it.Field()
			checkAgainstProtowire(t, b, off, fl)
			if pf, err := wire.ParseField(b, off); err != nil || pf != fl {
				t.Fatalf("ParseField at %d = %+v, %v; iterator %+v", off, pf, err, fl)
			}
			off = fl.End
			count++
		}
		if _, err := wire.ParseField(b, off); off < len(b) && (err != nil) != (it.Err() != nil) {
			t.Fatalf("ParseField at %d: %v; iterator: %v", off, err, it.Err())
		}
		pcount, perr := consumeAll(b)
		if (it.Err() != nil) != (perr < 0) || (perr == 0 && count != pcount) {
			t.Fatalf("iter: %d records, err %v; protowire: %d records, err %d", count, it.Err(), pcount, perr)
		}
		if e, ok := it.Err().(*wire.Error); ok && (e.Offset < 0 || e.Offset > len(b)) {
			t.Fatalf("error offset %d outside 0..%d", e.Offset, len(b))
		}
	})
}

// FuzzWireSplice wraps b in two frames, replaces it and checks that the
// result parses back to the replacement.
func FuzzWireSplice(f *testing.F) {
	f.Add([]byte("abc"), []byte("replacement"))
	f.Add([]byte{}, bytes.Repeat([]byte("x"), 200))
	f.Fuzz(func(t *testing.T, old, repl []byte) {
		b := rec(tag(4, protowire.VarintType), vint(1), nest(old, 1, 2), tag(5, protowire.VarintType), vint(2))
		fr, start, end := frames(t, b, 1, 2)
		got := wire.Splice(nil, b, fr, start, end, repl)
		want := rec(tag(4, protowire.VarintType), vint(1), nest(repl, 1, 2), tag(5, protowire.VarintType), vint(2))
		if !bytes.Equal(got, want) {
			t.Fatalf("Splice =\n%x\nwant\n%x", got, want)
		}
	})
}

// FuzzWirePacked holds CountPacked, PackedVarintsOK and NextPacked against
// protowire.
func FuzzWirePacked(f *testing.F) {
	f.Add([]byte{1, 0x80, 1, 0xff})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 3})
	f.Add([]byte{5, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02})
	f.Fuzz(func(t *testing.T, b []byte) {
		n, err := wire.CountPacked(b, 0, len(b), protowire.VarintType)
		want, ok := 0, true
		for p := b; len(p) > 0; want++ {
			_, m := protowire.ConsumeVarint(p)
			if m < 0 {
				ok = false
				break
			}
			p = p[m:]
		}
		if ok != (err == nil) || (ok && n != want) {
			t.Fatalf("CountPacked = %d, %v; protowire %d, ok %v", n, err, want, ok)
		}
		if got := wire.PackedVarintsOK(b); got != ok {
			t.Fatalf("PackedVarintsOK = %v; protowire ok %v", got, ok)
		}
	})
}
