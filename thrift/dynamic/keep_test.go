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

func smallPart(s *bench.Small) *bench.SmallPart {
	if s == nil {
		return nil
	}
	return &bench.SmallPart{Tiny: s.Tiny, Score: s.Score, Blob: s.Blob}
}

// mediumPart is Keep's Medium -> MediumPart done on the generated structs.
func mediumPart(m *bench.Medium) *bench.MediumPart {
	out := &bench.MediumPart{Head: smallPart(m.Head)}
	if m.Items != nil {
		out.Items = []*bench.SmallPart{}
		for _, s := range m.Items {
			out.Items = append(out.Items, smallPart(s))
		}
	}
	if m.ByName != nil {
		out.ByName = map[string]*bench.SmallPart{}
		for k, s := range m.ByName {
			out.ByName[k] = smallPart(s)
		}
	}
	return out
}

// TestKeepDiff holds Keep against the same trim done on the generated
// structs: Small -> SmallPart and Medium -> MediumPart decode to the
// copies; keeping a value's own Type gives its bytes back.
func TestKeepDiff(t *testing.T) {
	for _, s := range corpus(t, 25) {
		ty := thriftfixture.BenchType(t, s.name)
		v := dynamic.NewValue(ty, s.p, s.b)
		same, err := v.Keep(nil, ty)
		if err != nil || !bytes.Equal(same, s.b) {
			t.Fatalf("%s: Keep to its own type changed the bytes, %v", s.label, err)
		}
		var want thrift.TStruct
		switch s.name {
		case "Small":
			want = smallPart(decode(t, s.p, s.name, s.b).(*bench.Small))
		case "Medium":
			want = mediumPart(decode(t, s.p, s.name, s.b).(*bench.Medium))
		default:
			continue
		}
		// The generated Read skips unknown fields and fills absent
		// structs, so compare bytes, keeping from the generated code's
		// encoding of what it read (every field it has written).
		norm := encode(t, s.p, decode(t, s.p, s.name, s.b))
		out, err := dynamic.NewValue(ty, s.p, norm).Keep(nil, thriftfixture.BenchType(t, s.name+"Part"))
		if err != nil {
			t.Fatalf("%s: Keep: %v", s.label, err)
		}
		if err := dynamic.Validate(thriftfixture.BenchType(t, s.name+"Part"), s.p, out); err != nil {
			t.Fatalf("%s: Keep's result does not validate: %v", s.label, err)
		}
		if got, err := thriftfixture.Canonical(s.p, out); err != nil || !bytes.Equal(got, encode(t, s.p, want)) {
			t.Fatalf("%s: Keep gives other bytes than the generated code writes (%v)", s.label, err)
		}
	}
}

// TestMaskDiff holds Mask against clearing the same fields on the
// generated structs, through lists and maps of structs.
func TestMaskDiff(t *testing.T) {
	paths := []string{"title", "items.name", "byName.blob", "head.2", "level"}
	clear := func(m *bench.Medium) {
		m.Title, m.Level = "", nil
		for _, s := range m.Items {
			s.Name = ""
		}
		for _, s := range m.ByName {
			s.Blob = nil
		}
		if m.Head != nil {
			m.Head.ID = 0
		}
	}
	fm, err := dynamic.NewFieldMask(thriftfixture.BenchType(t, "Medium"), paths...)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range corpus(t, 25) {
		if s.name != "Medium" {
			continue
		}
		out, err := dynamic.NewValue(thriftfixture.BenchType(t, s.name), s.p, s.b).Mask(nil, fm)
		if err != nil {
			t.Fatalf("%s: Mask: %v", s.label, err)
		}
		if err := dynamic.Validate(thriftfixture.BenchType(t, s.name), s.p, out); err != nil {
			t.Fatalf("%s: Mask's result does not validate: %v", s.label, err)
		}
		want := decode(t, s.p, s.name, s.b).(*bench.Medium)
		clear(want)
		if got := decode(t, s.p, s.name, out); !sameValue(t, s.p, got, want) {
			t.Fatalf("%s: Mask:\n got %+v\nwant %+v", s.label, got, want)
		}
		if masked(t, s.p, out, "title", "items[0].name", "head.2", "level") {
			t.Fatalf("%s: Mask kept a field it drops", s.label)
		}
	}
	large, err := dynamic.NewFieldMask(thriftfixture.BenchType(t, "Large"), "pages.items.name", "bySmall.title", "pages")
	if err != nil {
		t.Fatal(err)
	}
	for _, pr := range []wire.Protocol{wire.Binary, wire.Compact} {
		ext := map[wire.Protocol]string{wire.Binary: "binary", wire.Compact: "compact"}[pr]
		b := thriftfixture.ReadSpecimen(t, "large", ext)
		out, err := dynamic.NewValue(thriftfixture.BenchType(t, "Large"), pr, b).Mask(nil, large)
		if err != nil {
			t.Fatal(err)
		}
		want := decode(t, pr, "Large", b).(*bench.Large)
		want.Pages = nil
		for _, m := range want.BySmall {
			m.Title = ""
		}
		if got := decode(t, pr, "Large", out); !sameValue(t, pr, got, want) {
			t.Fatalf("%s: Mask of Large differs", ext)
		}
	}
}

// masked reports whether any of paths is present in the Medium b.
func masked(t *testing.T, p wire.Protocol, b []byte, paths ...string) bool {
	v := dynamic.NewValue(thriftfixture.BenchType(t, "Medium"), p, b)
	for _, s := range paths {
		if got, err := v.Get(dynamic.MustParsePath(s)); err != nil || got.Exists() {
			return true
		}
	}
	return false
}

func TestFieldMaskErrors(t *testing.T) {
	for _, p := range []string{"items[0].name", "nope", "title.x", "items.nope"} {
		var pe *dynamic.PathError
		if _, err := dynamic.NewFieldMask(thriftfixture.BenchType(t, "Medium"), p); !errors.As(err, &pe) {
			t.Errorf("NewFieldMask(%q) = %v, want a PathError", p, err)
		}
	}
}

// TestKeepPathsDiff holds KeepPaths against copying the same fields into
// a new generated struct, through lists and maps of structs.
func TestKeepPathsDiff(t *testing.T) {
	fm, err := dynamic.NewFieldMask(thriftfixture.BenchType(t, "Medium"), "title", "items.name", "byName.2", "head", "level")
	if err != nil {
		t.Fatal(err)
	}
	keep := func(m *bench.Medium) *bench.Medium {
		out := &bench.Medium{Title: m.Title, Head: m.Head, Level: m.Level}
		for _, s := range m.Items {
			out.Items = append(out.Items, &bench.Small{Name: s.Name})
		}
		if m.ByName != nil {
			out.ByName = map[string]*bench.Small{}
		}
		for k, s := range m.ByName {
			out.ByName[k] = &bench.Small{ID: s.ID}
		}
		return out
	}
	for _, s := range corpus(t, 25) {
		if s.name != "Medium" {
			continue
		}
		out, err := dynamic.NewValue(thriftfixture.BenchType(t, s.name), s.p, s.b).KeepPaths(nil, fm)
		if err != nil {
			t.Fatalf("%s: KeepPaths: %v", s.label, err)
		}
		if err := dynamic.Validate(thriftfixture.BenchType(t, s.name), s.p, out); err != nil {
			t.Fatalf("%s: KeepPaths' result does not validate: %v", s.label, err)
		}
		want := keep(decode(t, s.p, s.name, s.b).(*bench.Medium))
		if got := decode(t, s.p, s.name, out); !sameValue(t, s.p, got, want) {
			t.Fatalf("%s: KeepPaths:\n got %+v\nwant %+v", s.label, got, want)
		}
		if masked(t, s.p, out, "ratio") {
			t.Fatalf("%s: KeepPaths kept a field it drops", s.label)
		}
	}
}
