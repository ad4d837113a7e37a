package transcode_test

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/idl"
	"github.com/rpckit/rpckit/thrift/transcode"
	"github.com/rpckit/rpckit/thrift/wire"
)

// TestCorpusRoundTrip converts random values of every struct, union and
// exception of the IDL corpus (thrift/idl/testdata, and bench.thrift in
// thrift/testdata) to JSON and back, in both protocols, and expects the
// same bytes: the values are written here from the Type, field by field.
func TestCorpusRoundTrip(t *testing.T) {
	opts := idl.Options{FS: os.DirFS("../idl/testdata"), IncludePaths: []string{"include"}}
	kinds := map[idl.Kind]bool{}
	for _, file := range []string{"all.thrift", "bench.thrift", "docs.thrift", "shared.thrift", "uuid.thrift"} {
		opts := opts
		if file == "bench.thrift" {
			opts = idl.Options{FS: os.DirFS("../testdata")}
		}
		f, err := idl.ParseFile(file, opts)
		if err != nil {
			t.Fatal(err)
		}
		var cache dynamic.Cache
		for _, s := range f.Structs {
			typ := cache.Struct(s)
			for _, f := range typ.Fields {
				kinds[f.Type.Kind] = true
			}
			for seed := range uint64(20) {
				for _, p := range []wire.Protocol{wire.Binary, wire.Compact} {
					g := valueGen{p: p, r: rand.New(rand.NewPCG(seed, 7))}
					b := g.structValue(nil, typ, 4)
					j, err := transcode.MarshalOptions{Protocol: p}.Marshal(typ, b)
					if err != nil {
						t.Fatalf("%s %s seed %d %v: Marshal: %v", file, s.Name, seed, p, err)
					}
					back, err := transcode.UnmarshalOptions{Protocol: p}.Unmarshal(typ, j)
					if err != nil {
						t.Fatalf("%s %s seed %d %v: Unmarshal: %v\n%s", file, s.Name, seed, p, err, j)
					}
					if !bytes.Equal(back, b) {
						t.Fatalf("%s %s seed %d %v: round trip differs\n got %x\nwant %x\njson %s", file, s.Name, seed, p, back, b, j)
					}
				}
			}
		}
	}
	for k := idl.BoolKind; k <= idl.EnumKind; k++ {
		if !kinds[k] && k != idl.ExceptionKind && k != idl.UnionKind { // those two are roots here
			t.Errorf("the corpus has no field of kind %v", k)
		}
	}
}

// valueGen writes random Thrift values of a Type: required fields always,
// the others at random, one member of a union; valid UTF-8 strings, no NaN.
type valueGen struct {
	p wire.Protocol
	r *rand.Rand
}

func (g valueGen) structValue(b []byte, t *dynamic.Type, depth int) []byte {
	var last int16
	pick := -1
	if t.Kind == idl.UnionKind && len(t.Fields) > 0 {
		pick = g.r.IntN(len(t.Fields))
	}
	for i, f := range t.Fields {
		switch {
		case pick >= 0 && i != pick:
			continue
		case pick < 0 && f.Required != idl.Required && (depth <= 0 || g.r.IntN(3) == 0):
			continue
		}
		if f.Type.Kind == idl.BoolKind {
			b = g.p.AppendBoolField(b, f.ID, last, g.r.IntN(2) == 0)
		} else {
			b = g.p.AppendFieldHeader(b, f.Type.Wire, f.ID, last)
			b = g.value(b, f.Type, depth)
		}
		last = f.ID
	}
	return g.p.AppendStop(b)
}

var words = []string{"", "a", "grüße", "東京", "quote\"back\\slash", "ctl\x01\n", "😀"}

func (g valueGen) value(b []byte, t *dynamic.Type, depth int) []byte {
	n := 0
	if depth > 0 {
		n = g.r.IntN(4)
	}
	switch t.Kind {
	case idl.BoolKind:
		return g.p.AppendBool(b, g.r.IntN(2) == 0)
	case idl.I8Kind:
		return g.p.AppendByte(b, int8(g.r.Uint32()))
	case idl.I16Kind:
		return g.p.AppendI16(b, int16(g.r.Uint32()))
	case idl.I32Kind, idl.EnumKind:
		return g.p.AppendI32(b, int32(g.r.Uint32()))
	case idl.I64Kind:
		return g.p.AppendI64(b, int64(g.r.Uint64())>>g.r.IntN(64))
	case idl.DoubleKind:
		vals := []float64{0, -1.5, math.Inf(1), math.Inf(-1), math.MaxFloat64, g.r.NormFloat64() * 1e10}
		return g.p.AppendDouble(b, vals[g.r.IntN(len(vals))])
	case idl.StringKind:
		return g.p.AppendString(b, words[g.r.IntN(len(words))])
	case idl.BinaryKind:
		v := make([]byte, g.r.IntN(20))
		for i := range v {
			v[i] = byte(g.r.Uint32())
		}
		return g.p.AppendBinary(b, v)
	case idl.UUIDKind:
		var v [16]byte
		for i := range v {
			v[i] = byte(g.r.Uint32())
		}
		return g.p.AppendUUID(b, v)
	case idl.ListKind, idl.SetKind:
		b = g.p.AppendListHeader(b, t.Elem.Wire, n)
		for range n {
			b = g.value(b, t.Elem, depth-1)
		}
		return b
	case idl.MapKind:
		b = g.p.AppendMapHeader(b, t.Key.Wire, t.Elem.Wire, n)
		for range n {
			b = g.value(b, t.Key, depth-1)
			b = g.value(b, t.Elem, depth-1)
		}
		return b
	}
	return g.structValue(b, t, depth-1)
}
