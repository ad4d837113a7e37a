package dynamic_test

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/rpckit/rpckit/internal/gen/thrift/rpckit/bench"
	"github.com/rpckit/rpckit/internal/thriftfixture"
	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/wire"
)

// edit is one Set or Delete and the same change made on the generated
// struct. ok says whether it applies to a value (its parent present).
type edit struct {
	path string
	val  *dynamic.Val // nil: Delete
	ok   func(thrift.TStruct) bool
	do   func(thrift.TStruct)
}

func val(v dynamic.Val) *dynamic.Val { return &v }

func always(thrift.TStruct) bool { return true }

func medium(s thrift.TStruct) *bench.Medium { return s.(*bench.Medium) }

var smallEdits = []edit{
	{"tiny", val(dynamic.IntVal(-128)), always, func(s thrift.TStruct) { s.(*bench.Small).Tiny = -128 }},
	{"id", val(dynamic.IntVal(1 << 40)), always, func(s thrift.TStruct) { s.(*bench.Small).ID = 1 << 40 }},
	{"score", val(dynamic.FloatVal(-2.5)), always, func(s thrift.TStruct) { s.(*bench.Small).Score = -2.5 }},
	{"name", val(dynamic.StringVal("grüße, a longer name than before")), always, func(s thrift.TStruct) { s.(*bench.Small).Name = "grüße, a longer name than before" }},
	{"6", val(dynamic.BinaryVal(nil)), always, func(s thrift.TStruct) { s.(*bench.Small).Blob = []byte{} }},
	{"name", nil, always, func(s thrift.TStruct) { s.(*bench.Small).Name = "" }},
	{"1", nil, always, func(s thrift.TStruct) { s.(*bench.Small).Tiny = 0 }},
	{"blob", nil, always, func(s thrift.TStruct) { s.(*bench.Small).Blob = nil }},
}

var mediumEdits = []edit{
	{"title", val(dynamic.StringVal("new")), always, func(s thrift.TStruct) { medium(s).Title = "new" }},
	{"code", val(dynamic.IntVal(-7)), always, func(s thrift.TStruct) { medium(s).Code = -7 }},
	{"level", val(dynamic.IntVal(3)), always, func(s thrift.TStruct) { medium(s).Level = bench.LevelPtr(3) }},
	{"at", val(dynamic.IntVal(-1)), always, func(s thrift.TStruct) { medium(s).At = bench.MillisPtr(-1) }},
	{"head.name", val(dynamic.StringVal("h")), func(s thrift.TStruct) bool { return medium(s).Head != nil },
		func(s thrift.TStruct) { medium(s).Head.Name = "h" }},
	{"items[0].id", val(dynamic.IntVal(5)), func(s thrift.TStruct) bool { return len(medium(s).Items) > 0 },
		func(s thrift.TStruct) { medium(s).Items[0].ID = 5 }},
	{"counts[1]", val(dynamic.IntVal(9)), func(s thrift.TStruct) bool { return len(medium(s).Counts) > 1 },
		func(s thrift.TStruct) { medium(s).Counts[1] = 9 }},
	{`labels["zz new"]`, val(dynamic.StringVal("v")), always, func(s thrift.TStruct) {
		if medium(s).Labels == nil {
			medium(s).Labels = map[string]string{}
		}
		medium(s).Labels["zz new"] = "v"
	}},
	{"totals[7]", val(dynamic.IntVal(70)), always, func(s thrift.TStruct) {
		if medium(s).Totals == nil {
			medium(s).Totals = map[int32]int64{}
		}
		medium(s).Totals[7] = 70
	}},
	{"head", val(dynamic.EncodedVal(nil)), nil, nil}, // filled in by the test: an encoded Small
	{"title", nil, always, func(s thrift.TStruct) { medium(s).Title = "" }},
	{"head", nil, always, func(s thrift.TStruct) { medium(s).Head = nil }},
	{"level", nil, always, func(s thrift.TStruct) { medium(s).Level = nil }},
	{"items[0]", nil, func(s thrift.TStruct) bool { return len(medium(s).Items) > 0 },
		func(s thrift.TStruct) { medium(s).Items = medium(s).Items[1:] }},
	{"ids[0]", nil, func(s thrift.TStruct) bool { return len(medium(s).Ids) > 0 },
		func(s thrift.TStruct) { medium(s).Ids = medium(s).Ids[1:] }},
	{"totals[0]", nil, func(s thrift.TStruct) bool { _, ok := medium(s).Totals[0]; return ok },
		func(s thrift.TStruct) { delete(medium(s).Totals, 0) }},
	{"byName", nil, always, func(s thrift.TStruct) { medium(s).ByName = nil }},
}

// TestSetDeleteDiff holds Set and Delete against the generated code: the
// edited bytes decode to the struct the generated code read, with the
// same edit made on it, on every Small and Medium of the corpus, in both
// protocols.
func TestSetDeleteDiff(t *testing.T) {
	for _, s := range corpus(t, 25) {
		edits := map[string][]edit{"Small": smallEdits, "Medium": mediumEdits}[s.name]
		for _, e := range edits {
			e = fillEncoded(t, s.p, e)
			want := decode(t, s.p, s.name, s.b)
			if !e.ok(want) {
				continue
			}
			e.do(want)
			v := dynamic.NewValue(thriftfixture.BenchType(t, s.name), s.p, s.b)
			var out []byte
			var err error
			if e.val != nil {
				out, err = v.Set(nil, dynamic.MustParsePath(e.path), *e.val)
			} else {
				out, err = v.Delete(nil, dynamic.MustParsePath(e.path))
			}
			if err != nil {
				t.Fatalf("%s: edit %s: %v", s.label, e.path, err)
			}
			if err := dynamic.Validate(v.Type(), s.p, out); err != nil {
				t.Fatalf("%s: edit %s: the result does not validate: %v", s.label, e.path, err)
			}
			if got := decode(t, s.p, s.name, out); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: edit %s:\n got %+v\nwant %+v", s.label, e.path, got, want)
			}
		}
	}
}

// fillEncoded makes the EncodedVal edit of head: a Small encoded in p.
func fillEncoded(t *testing.T, p wire.Protocol, e edit) edit {
	if e.do != nil {
		return e
	}
	sm := &bench.Small{Tiny: 3, ID: -9, Score: 0.5, Name: "encoded", Blob: []byte{1, 2}}
	e.val = val(dynamic.EncodedVal(encode(t, p, sm)))
	e.ok = always
	e.do = func(s thrift.TStruct) { medium(s).Head = sm }
	return e
}

// TestSetCompactBool: a compact bool field holds its value in its header;
// setting it rewrites the header, adding it computes the id delta.
func TestSetCompactBool(t *testing.T) {
	src := []byte(`struct B { 1: bool a, 2: i32 n, 7: bool b } struct N { 2: i32 n }`)
	f, err := parseIDL(src)
	if err != nil {
		t.Fatal(err)
	}
	var c dynamic.Cache
	ty := c.Type(f.Type("B"))
	for _, p := range []wire.Protocol{wire.Binary, wire.Compact} {
		b := p.AppendBoolField(nil, 1, 0, true)
		b = p.AppendStop(p.AppendI32(p.AppendFieldHeader(b, wire.I32, 2, 1), 5))
		v := dynamic.NewValue(ty, p, b)
		out, err := v.Set(nil, dynamic.MustParsePath("a"), dynamic.BoolVal(false))
		if err != nil {
			t.Fatal(err)
		}
		out, err = dynamic.NewValue(ty, p, out).Set(nil, dynamic.MustParsePath("b"), dynamic.BoolVal(true))
		if err != nil {
			t.Fatal(err)
		}
		w := dynamic.NewValue(ty, p, out)
		a, _ := w.Get(dynamic.MustParsePath("a"))
		bb, _ := w.Get(dynamic.MustParsePath("b"))
		n, _ := w.Get(dynamic.MustParsePath("n"))
		if a.Bool() || !bb.Bool() || n.Int() != 5 || dynamic.Validate(ty, p, out) != nil {
			t.Fatalf("%v: a %v b %v n %d: % x", p, a.Bool(), bb.Bool(), n.Int(), out)
		}
		// The DOM does the same edits.
		d := dynamic.NewDoc()
		if err := d.Load(ty, p, b); err != nil {
			t.Fatal(err)
		}
		if d.Set(dynamic.MustParsePath("a"), dynamic.BoolVal(false)) != nil || d.Set(dynamic.MustParsePath("b"), dynamic.BoolVal(true)) != nil {
			t.Fatalf("%v: Doc.Set of a bool failed", p)
		}
		if got := d.Marshal(); !bytes.Equal(got, out) {
			t.Fatalf("%v: Doc gives % x, Value.Set % x", p, got, out)
		}
		// Keep drops bool fields whose value is in their header.
		kept, err := w.Keep(nil, c.Type(f.Type("N")))
		want := p.AppendStop(p.AppendI32(p.AppendFieldHeader(nil, wire.I32, 2, 0), 5))
		if err != nil || !bytes.Equal(kept, want) {
			t.Fatalf("%v: Keep = % x, %v; want % x", p, kept, err, want)
		}
	}
}

// TestSetErrors: values that do not fit, and paths an edit cannot take.
func TestSetErrors(t *testing.T) {
	v := dynamic.NewValue(thriftfixture.BenchType(t, "Medium"), wire.Compact, thriftfixture.ReadSpecimen(t, "medium", "compact"))
	for _, tc := range []struct {
		path string
		x    dynamic.Val
	}{
		{"flag", dynamic.IntVal(128)},
		{"title", dynamic.IntVal(1)},
		{"items[99]", dynamic.EncodedVal([]byte{0})},
		{"head", dynamic.EncodedVal([]byte{0x15})},
		{"items", dynamic.StringVal("x")},
	} {
		out, err := v.Set(nil, dynamic.MustParsePath(tc.path), tc.x)
		var pe *dynamic.PathError
		if !errors.As(err, &pe) || len(out) != 0 {
			t.Errorf("Set(%s) = %d bytes, %v; want a PathError", tc.path, len(out), err)
		}
	}
	empty := dynamic.NewValue(thriftfixture.BenchType(t, "Medium"), wire.Compact, []byte{0})
	if _, err := empty.Set(nil, dynamic.MustParsePath("head.name"), dynamic.StringVal("x")); err == nil {
		t.Error("Set under an absent struct: no error")
	}
	if out, err := empty.Delete(nil, dynamic.MustParsePath("head.name")); err != nil || string(out) != "\x00" {
		t.Errorf("Delete under an absent struct = %v, %v; want the bytes unchanged", out, err)
	}
}

// TestSetUUID: a uuid field is set from its 16 bytes, added when absent
// and replaced when present, in both protocols.
func TestSetUUID(t *testing.T) {
	f, err := parseIDL([]byte(`struct U { 1: uuid id, 2: i32 n }`))
	if err != nil {
		t.Fatal(err)
	}
	var c dynamic.Cache
	ty := c.Type(f.Type("U"))
	first := [16]byte{0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3, 0xa4, 0x56, 0x42, 0x66, 0x14, 0x17, 0x40, 0x00}
	second := [16]byte{15: 1}
	for _, p := range []wire.Protocol{wire.Binary, wire.Compact} {
		b := p.AppendStop(p.AppendI32(p.AppendFieldHeader(nil, wire.I32, 2, 0), 5))
		id := dynamic.MustParsePath("id")
		for _, u := range [][16]byte{first, second} {
			if b, err = dynamic.NewValue(ty, p, b).Set(nil, id, dynamic.UUIDVal(u)); err != nil {
				t.Fatalf("%v: Set: %v", p, err)
			}
			got, err := dynamic.NewValue(ty, p, b).Get(id)
			if err != nil || got.UUID() != u {
				t.Fatalf("%v: Get after Set = %x, %v; want %x", p, got.UUID(), err, u)
			}
		}
		n, _ := dynamic.NewValue(ty, p, b).Get(dynamic.MustParsePath("n"))
		if n.Int() != 5 || dynamic.Validate(ty, p, b) != nil {
			t.Fatalf("%v: n %d after the edits, % x", p, n.Int(), b)
		}
	}
}
