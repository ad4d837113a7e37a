package wire_test

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/rpckit/rpckit/internal/gen/thrift/rpckit/bench"
	"github.com/rpckit/rpckit/internal/thriftfixture"
	"github.com/rpckit/rpckit/thrift/wire"
)

// TestReplaceValue replaces Medium's title and head in the specimen and
// checks the generated code reads the edit, other fields unchanged.
func TestReplaceValue(t *testing.T) {
	for _, pr := range thriftfixture.Protocols {
		p := pr.Proto
		b := readSpecimen(t, "medium", pr.Ext)
		head := &bench.Small{ID: 42, Name: "replaced — ersetzt"}
		headBytes, err := thriftfixture.Encode(p, head)
		if err != nil {
			t.Fatal(err)
		}
		out := b
		for _, id := range []int16{1, 8} {
			f := field(t, p, out, id)
			v := headBytes
			if id == 1 {
				v = p.AppendString(nil, "a new title")
			}
			out = wire.ReplaceValue(nil, out, f, v)
		}
		want, got := bench.NewMedium(), bench.NewMedium()
		if err := thriftfixture.Decode(p, b, want); err != nil {
			t.Fatal(err)
		}
		if err := thriftfixture.Decode(p, out, got); err != nil {
			t.Fatalf("%s: the edit does not decode: %v", pr.Ext, err)
		}
		want.Title, want.Head = "a new title", head
		if !got.Equals(want) {
			t.Errorf("%s: after the edit %v\nwant %v", pr.Ext, got, want)
		}
	}
}

// field finds field id of the struct b.
func field(t *testing.T, p wire.Protocol, b []byte, id int16) wire.Field {
	t.Helper()
	it := wire.NewIter(p, b, 0)
	for it.Next() {
		if it.Field().ID == id {
			return it.Field()
		}
	}
	t.Fatalf("no field %d (%v)", id, it.Err())
	return wire.Field{}
}

// TestReplaceBoolField: a compact bool field is replaced whole, its value
// being in its header.
func TestReplaceBoolField(t *testing.T) {
	for _, p := range []wire.Protocol{wire.Binary, wire.Compact} {
		b := p.AppendBoolField(nil, 3, 0, true)
		b = p.AppendFieldHeader(b, wire.I32, 4, 3)
		b = p.AppendStop(p.AppendI32(b, 7))
		f := field(t, p, b, 3)
		out := wire.Replace(nil, b, f.Start, f.End, p.AppendBoolField(nil, 3, 0, false))
		want := p.AppendBoolField(nil, 3, 0, false)
		want = append(want, b[f.End:]...)
		if !bytes.Equal(out, want) || field(t, p, out, 3).Bool {
			t.Errorf("%v: %x; want %x", p, out, want)
		}
	}
}

func TestReplaceAllocatesOnce(t *testing.T) {
	b := readSpecimen(t, "medium", "compact")
	f := field(t, wire.Compact, b, 1)
	repl := wire.Compact.AppendString(nil, "x")
	if n := testing.AllocsPerRun(20, func() { wire.ReplaceValue(nil, b, f, repl) }); n != 1 {
		t.Errorf("%v allocations; want 1", n)
	}
	dst := make([]byte, 0, len(b))
	if n := testing.AllocsPerRun(20, func() { wire.ReplaceValue(dst, b, f, repl) }); n != 0 {
		t.Errorf("%v allocations into a large enough dst; want 0", n)
	}
}

// TestDeleteField deletes each top-level field of the specimens and of
// random structs in turn: the result must read as the same tree without
// that field, and pass the checks against the Apache library.
func TestDeleteField(t *testing.T) {
	for _, pr := range thriftfixture.Protocols {
		p := pr.Proto
		inputs := [][]byte{readSpecimen(t, "medium", pr.Ext), readSpecimen(t, "large", pr.Ext)}
		g := treeGen{rand.New(rand.NewPCG(7, 8))}
		for range 100 {
			inputs = append(inputs, appendTree(p, nil, wire.Struct, g.structValue(3)))
		}
		for _, b := range inputs {
			checkDeletes(t, p, b)
		}
	}
}

func checkDeletes(t *testing.T, p wire.Protocol, b []byte) {
	t.Helper()
	tree, _, err := readTree(p, b, 0, wire.Struct)
	if err != nil {
		t.Fatal(err)
	}
	prev := int16(0)
	it := wire.NewIter(p, b, 0)
	for i := 0; it.Next(); i++ {
		out, err := p.DeleteField(nil, b, it.Field(), prev)
		if err != nil {
			t.Fatalf("%v: deleting field %d: %v", p, it.Field().ID, err)
		}
		want := slices.Delete(slices.Clone(tree.(structNode)), i, i+1)
		got, _, err := readTree(p, out, 0, wire.Struct)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("%v: without field %d: %v, %v\nwant %v", p, it.Field().ID, got, err, want)
		}
		checkStruct(t, p, out)
		prev = it.Field().ID
	}
}
