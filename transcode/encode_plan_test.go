package transcode

import (
	"runtime"
	"testing"
	"weak"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/internal/fixture"
	fixturev1 "github.com/rpckit/rpckit/internal/gen/rpckit/fixture/v1"
	"google.golang.org/protobuf/proto"
)

// TestPlanLifetime: the plans of a Cache's Types go with the Cache, as a
// gateway drops its types at every reload; while the Types live, their
// plans are built once.
func TestPlanLifetime(t *testing.T) {
	wire, err := proto.Marshal(fixture.Medium())
	if err != nil {
		t.Fatal(err)
	}
	md := (&fixturev1.Medium{}).ProtoReflect().Descriptor()
	c := &dynamic.Cache{}
	typ := c.Type(md)
	if _, err := Marshal(typ, wire); err != nil {
		t.Fatal(err)
	}
	p := planOf(typ)
	if planOf(c.Type(md)) != p {
		t.Fatal("a Type's plan was built twice")
	}
	var subs []weak.Pointer[plan]
	for i := range p.fields {
		if sub := p.fields[i].sub; sub != nil {
			subs = append(subs, weak.Make(sub))
		}
	}
	root := weak.Make(p)
	c, typ, p = nil, nil, nil
	runtime.GC()
	if root.Value() != nil {
		t.Fatal("the plan outlived its Type and Cache")
	}
	for _, w := range subs {
		if w.Value() != nil {
			t.Fatal("a message field's plan outlived its Type and Cache")
		}
	}
}

// BenchmarkPlanOf measures finding the plan of a Type: one type over and
// over, and two in turn, as a gateway converts many types.
func BenchmarkPlanOf(b *testing.B) {
	medium := typeOf(&fixturev1.Medium{})
	small := typeOf(&fixturev1.Small{})
	b.Run("same", func(b *testing.B) {
		for b.Loop() {
			_ = planOf(medium)
		}
	})
	b.Run("alternating", func(b *testing.B) {
		for b.Loop() {
			_ = planOf(medium)
			_ = planOf(small)
		}
	})
}
