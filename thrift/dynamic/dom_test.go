package dynamic_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/rpckit/rpckit/internal/gen/thrift/rpckit/bench"
	"github.com/rpckit/rpckit/internal/thriftfixture"

	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/wire"
)

// TestDocDiff holds the DOM against the generated code: a loaded Doc
// serializes to its bytes; the edits of TestSetDeleteDiff, made on a Doc
// one at a time and all together, give what the generated code gives for
// the same changes on its struct.
func TestDocDiff(t *testing.T) {
	var pool dynamic.DocPool
	for _, s := range corpus(t, 25) {
		d := pool.Get()
		ty := thriftfixture.BenchType(t, s.name)
		if err := d.Load(ty, s.p, s.b); err != nil {
			t.Fatalf("%s: Load: %v", s.label, err)
		}
		if out := d.Marshal(); !bytes.Equal(out, s.b) {
			t.Fatalf("%s: a loaded Doc serializes to other bytes", s.label)
		}
		edits := map[string][]edit{"Small": smallEdits, "Medium": mediumEdits}[s.name]
		all := decode(t, s.p, s.name, s.b)
		together := pool.Get()
		if err := together.Load(ty, s.p, s.b); err != nil {
			t.Fatal(err)
		}
		for _, e := range edits {
			e = fillEncoded(t, s.p, e)
			want := decode(t, s.p, s.name, s.b)
			if !e.ok(want) || !e.ok(all) {
				continue
			}
			e.do(want)
			e.do(all)
			if err := d.Load(ty, s.p, s.b); err != nil {
				t.Fatal(err)
			}
			if err := docEdit(d, e); err != nil {
				t.Fatalf("%s: edit %s: %v", s.label, e.path, err)
			}
			if err := docEdit(together, e); err != nil {
				t.Fatalf("%s: edit %s after others: %v", s.label, e.path, err)
			}
			checkDoc(t, s.label+" "+e.path, d, s.p, want)
		}
		checkDoc(t, s.label+" all edits", together, s.p, all)
		pool.Put(d)
		pool.Put(together)
	}
}

func docEdit(d *dynamic.Doc, e edit) error {
	if e.val != nil {
		return d.Set(dynamic.MustParsePath(e.path), *e.val)
	}
	return d.Delete(dynamic.MustParsePath(e.path))
}

func checkDoc(t *testing.T, label string, d *dynamic.Doc, p wire.Protocol, want thrift.TStruct) {
	t.Helper()
	out := d.Marshal()
	name := d.Type().Struct.Name
	if err := dynamic.Validate(d.Type(), p, out); err != nil {
		t.Fatalf("%s: the Doc's bytes do not validate: %v", label, err)
	}
	if got := decode(t, p, name, out); !sameValue(t, p, got, want) {
		t.Fatalf("%s:\n got %v\nwant %v", label, got, want)
	}
}

// TestDocAllocs: a reused Doc loads, edits and serializes without
// allocating.
func TestDocAllocs(t *testing.T) {
	for _, ext := range []string{"binary", "compact"} {
		p := map[string]wire.Protocol{"binary": wire.Binary, "compact": wire.Compact}[ext]
		b := thriftfixture.ReadSpecimen(t, "medium", ext)
		ty := thriftfixture.BenchType(t, "Medium")
		d := dynamic.NewDoc()
		set, del := dynamic.MustParsePath("head.name"), dynamic.MustParsePath(`labels["x"]`)
		add := dynamic.MustParsePath(`labels["new"]`)
		buf := make([]byte, 0, 2*len(b))
		run := func() {
			if err := d.Load(ty, p, b); err != nil {
				t.Fatal(err)
			}
			if d.Set(set, dynamic.StringVal("n")) != nil || d.Delete(del) != nil || d.Set(add, dynamic.StringVal("v")) != nil {
				t.Fatal("edit failed")
			}
			buf = d.AppendTo(buf[:0])
		}
		run()
		if n := testing.AllocsPerRun(50, run); n != 0 {
			t.Errorf("%s: %v allocations per Load, edits and AppendTo", ext, n)
		}
	}
}

// TestDocErrors: bad bytes fail Load and leave the Doc empty; paths that
// do not fit fail edits.
func TestDocErrors(t *testing.T) {
	d := dynamic.NewDoc()
	ty := thriftfixture.BenchType(t, "Medium")
	b := thriftfixture.ReadSpecimen(t, "medium", "compact")
	for _, bad := range [][]byte{b[:len(b)-1], append(append([]byte{}, b...), 0), {0x19, 0xf5}} {
		if err := d.Load(ty, wire.Compact, bad); err == nil {
			t.Errorf("Load(% x...) = nil", bad[:2])
		}
		if d.Type() != nil || len(d.Marshal()) != 0 {
			t.Error("a failed Load left content")
		}
	}
	if err := d.Load(ty, wire.Compact, b); err != nil {
		t.Fatal(err)
	}
	var pe *dynamic.PathError
	for _, s := range []string{"nope", "items[99]", "items.x", "title.x"} {
		if err := d.Set(dynamic.MustParsePath(s), dynamic.StringVal("x")); !errors.As(err, &pe) {
			t.Errorf("Set(%s) = %v, want a PathError", s, err)
		}
	}
	if !bytes.Equal(d.Marshal(), b) {
		t.Error("failed edits changed the Doc")
	}
}

// TestDocEditUnderSet: a struct or list set whole can be edited under,
// as Value's edits one after the other do.
func TestDocEditUnderSet(t *testing.T) {
	for _, p := range []wire.Protocol{wire.Binary, wire.Compact} {
		ty := thriftfixture.BenchType(t, "Medium")
		b := encode(t, p, decode(t, p, "Medium", thriftfixture.ReadSpecimen(t, "medium", map[wire.Protocol]string{wire.Binary: "binary", wire.Compact: "compact"}[p])))
		small := encode(t, p, &bench.Small{Name: "set whole", Blob: []byte{1}})
		items := p.AppendListHeader(nil, wire.Struct, 2)
		items = append(append(items, small...), small...)
		edits := []struct {
			path string
			x    *dynamic.Val
		}{
			{"head", val(dynamic.EncodedVal(small))},
			{"head.name", val(dynamic.StringVal("then edited"))},
			{"items", val(dynamic.EncodedVal(items))},
			{"items[0]", nil},
			{"items[0].id", val(dynamic.IntVal(42))},
		}
		d := dynamic.NewDoc()
		if err := d.Load(ty, p, b); err != nil {
			t.Fatal(err)
		}
		want := b
		for _, e := range edits {
			path := dynamic.MustParsePath(e.path)
			var err, derr error
			if e.x != nil {
				want, err = dynamic.NewValue(ty, p, want).Set(nil, path, *e.x)
				derr = d.Set(path, *e.x)
			} else {
				want, err = dynamic.NewValue(ty, p, want).Delete(nil, path)
				derr = d.Delete(path)
			}
			if err != nil || derr != nil {
				t.Fatalf("%v: %s: %v, %v", p, e.path, err, derr)
			}
		}
		if got := d.Marshal(); !sameValue(t, p, decode(t, p, "Medium", got), decode(t, p, "Medium", want)) {
			t.Fatalf("%v: the Doc and Value's edits differ", p)
		}
		if got, _ := dynamic.NewValue(ty, p, want).Get(dynamic.MustParsePath("items[0].id")); got.Int() != 42 {
			t.Fatalf("%v: items[0].id = %d", p, got.Int())
		}
	}
}
