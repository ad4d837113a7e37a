package wire_test

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/rpckit/rpckit/internal/thriftfixture"
	"github.com/rpckit/rpckit/thrift/wire"
)

// addSeeds adds the Small specimen, small random structs of every wire
// type and the malformed inputs; larger seeds slow the fuzzer down, which
// spends its time minimizing them.
func addSeeds(f *testing.F, ext string) {
	f.Add(readSpecimen(f, "small", ext))
	p := wire.Binary
	if ext == "compact" {
		p = wire.Compact
	}
	g := treeGen{rand.New(rand.NewPCG(3, 4))}
	for added := 0; added < 8; {
		if b := appendTree(p, nil, wire.Struct, g.structValue(3)); len(b) < 200 {
			f.Add(b)
			added++
		}
	}
	for _, c := range malformed {
		if c.p == p {
			f.Add(c.b)
		}
	}
}

// fuzzSkip: Skip never panics, never reads past the input (the slice is
// capped, so an out-of-range read would panic) and consumes at most it;
// an error carries an offset inside the input. A struct it accepts, the
// Apache library skips too, to the same end.
func fuzzSkip(t *testing.T, p wire.Protocol, b []byte) {
	if end, err := p.Skip(b, 0, wire.Struct); err == nil {
		buf := thrift.NewTMemoryBuffer()
		buf.Write(b)
		err := thrift.Skip(ctx, thriftfixture.Protocol(p, buf), thrift.STRUCT, 2*wire.DefaultMaxDepth)
		if err != nil || len(b)-buf.Len() != end {
			t.Fatalf("Skip: end %d; Apache library: end %d, %v", end, len(b)-buf.Len(), err)
		}
	}
	for _, typ := range []wire.Type{wire.Struct, wire.List, wire.Map, wire.String} {
		end, err := p.Skip(b[:len(b):len(b)], 0, typ)
		if err == nil && (end < 0 || end > len(b)) {
			t.Fatalf("%v: consumed %d of %d", typ, end, len(b))
		}
		if e, ok := err.(*wire.Error); err != nil && (!ok || e.Offset < 0 || e.Offset > len(b)) {
			t.Fatalf("%v: error %v", typ, err)
		}
	}
}

// fuzzIterate: the iterator agrees with Skip, allocates nothing, and its
// fields tile the input from 0 to the Stop.
func fuzzIterate(t *testing.T, p wire.Protocol, b []byte) {
	end, skipErr := p.Skip(b, 0, wire.Struct)
	it := wire.NewIter(p, b, 0)
	off := 0
	for it.Next() {
		f := it.Field()
		if f.Start != off || f.Value < f.Start || f.End < f.Value || f.End > len(b) {
			t.Fatalf("field %+v after offset %d", f, off)
		}
		off = f.End
	}
	if (skipErr == nil) != (it.Err() == nil) || skipErr == nil && it.Offset() != end {
		t.Fatalf("Skip: %d, %v; iterator: %d, %v", end, skipErr, it.Offset(), it.Err())
	}
	n := testing.AllocsPerRun(1, func() {
		it := wire.NewIter(p, b, 0)
		for it.Next() {
		}
	})
	if n > 1 || n != 0 && skipErr == nil { // the error is the one allowed
		t.Fatalf("%v allocations (error %v)", n, skipErr)
	}
	checkHeaders(t, p, b)
}

// checkHeaders: a count a header reader accepts fits in the input.
func checkHeaders(t *testing.T, p wire.Protocol, b []byte) {
	if et, n, next, err := p.ConsumeListHeader(b, 0); err == nil && n > len(b)-next {
		t.Fatalf("list of %d %v in %d bytes", n, et, len(b)-next)
	}
	if _, _, n, next, err := p.ConsumeMapHeader(b, 0); err == nil && 2*n > len(b)-next {
		t.Fatalf("map of %d in %d bytes", n, len(b)-next)
	}
	if v, next, err := p.ConsumeBinary(b, 0); err == nil && next > len(b) {
		t.Fatalf("binary of %d ends at %d of %d", len(v), next, len(b))
	}
}

func FuzzSkipBinary(f *testing.F) {
	addSeeds(f, "binary")
	f.Fuzz(func(t *testing.T, b []byte) { fuzzSkip(t, wire.Binary, b) })
}

func FuzzSkipCompact(f *testing.F) {
	addSeeds(f, "compact")
	f.Fuzz(func(t *testing.T, b []byte) { fuzzSkip(t, wire.Compact, b) })
}

func FuzzIterateBinary(f *testing.F) {
	addSeeds(f, "binary")
	f.Fuzz(func(t *testing.T, b []byte) { fuzzIterate(t, wire.Binary, b) })
}

func FuzzIterateCompact(f *testing.F) {
	addSeeds(f, "compact")
	f.Fuzz(func(t *testing.T, b []byte) { fuzzIterate(t, wire.Compact, b) })
}
