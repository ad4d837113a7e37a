package dynamic_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/rpckit/rpckit/dynamic"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
)

func TestDocRoundTrip(t *testing.T) {
	var pool dynamic.DocPool
	for _, s := range corpus(t, 30) {
		d := pool.Get()
		if err := d.Load(dynamic.TypeOf(s.m.Descriptor()), s.b); err != nil {
			t.Fatalf("%s: Load: %v", s.name, err)
		}
		if got := d.AppendTo(nil); !bytes.Equal(got, s.b) {
			t.Fatalf("%s: round trip differs", s.name)
		}
		det, _ := proto.MarshalOptions{Deterministic: true}.Marshal(s.m)
		if err := d.Load(dynamic.TypeOf(s.m.Descriptor()), det); err != nil {
			t.Fatal(err)
		}
		if got := d.Marshal(); !bytes.Equal(got, det) {
			t.Fatalf("%s: round trip of the deterministic encoding differs", s.name)
		}
		pool.Put(d)
	}
}

// TestDocEditDifferential applies pairs of edits to a Doc and the same
// edits to dynamicpb messages.
func TestDocEditDifferential(t *testing.T) {
	g := newGen(13)
	var d dynamic.Doc
	for _, s := range corpus(t, 20) {
		var paths []string
		pathsOf(s.m, "", 0, &paths)
		typ := dynamic.TypeOf(s.m.Descriptor())
		for n := 0; n+1 < len(paths); n += 2 {
			if err := d.Load(typ, s.b); err != nil {
				t.Fatal(err)
			}
			want := proto.Clone(s.m).(*dynamicpb.Message)
			for _, ps := range paths[n : n+2] {
				p := mustPath(t, ps)
				fd := leafField(s.m.Descriptor(), p)
				del := g.chance(0.4) || ((fd.IsList() || fd.IsMap()) && p[len(p)-1].Kind == dynamic.StepField)
				var val protoreflect.Value
				if !del {
					val = g.value(fd, 1, nil)
				}
				what := fmt.Sprintf("%s: %s (delete %v)", s.name, ps, del)
				ok := refEdit(want, p, val, del)
				var err error
				if del {
					err = d.Delete(p)
				} else {
					err = d.Set(p, val)
				}
				if !ok {
					if err == nil {
						t.Fatalf("%s: no error for a missing element", what)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
			}
			gm := dynamicpb.NewMessage(s.m.Descriptor())
			if err := proto.Unmarshal(d.Marshal(), gm); err != nil {
				t.Fatalf("%s: %q: result does not parse: %v", s.name, paths[n:n+2], err)
			}
			if !sameMessage(gm, want) {
				t.Fatalf("%s: %q:\ngot  %v\nwant %v", s.name, paths[n:n+2], gm, want)
			}
		}
	}
}

func TestDocAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	v := mediumValue(t)
	var pool dynamic.DocPool
	dst := make([]byte, 0, 2*len(v.Bytes()))
	region := mustPath(t, "header.meta.region")
	run := func() {
		d := pool.Get()
		if err := d.Load(v.Type(), v.Bytes()); err != nil {
			t.Fatal(err)
		}
		_ = d.AppendTo(dst[:0])
		pool.Put(d)
	}
	run()
	if n := testing.AllocsPerRun(50, run); n != 0 {
		t.Fatalf("pooled Load and AppendTo allocate %v times", n)
	}
	var d dynamic.Doc
	_ = d.Load(v.Type(), v.Bytes())
	_ = d.Set(region, protoreflect.ValueOfString("x"))
	edited := func() {
		_ = d.Load(v.Type(), v.Bytes())
		_ = d.Set(region, protoreflect.ValueOfString("x"))
		_ = d.AppendTo(dst[:0])
	}
	if n := testing.AllocsPerRun(50, edited); n > 2 {
		t.Fatalf("Load, Set and AppendTo allocate %v times", n)
	}
}
