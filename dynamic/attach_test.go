package dynamic_test

import (
	"sync"
	"testing"

	"github.com/rpckit/rpckit/dynamic"
	fixturev1 "github.com/rpckit/rpckit/internal/gen/rpckit/fixture/v1"
)

// TestAttach: the first value attached to a Type stays, whoever attaches
// at once, and a Type knows the Cache that compiled it.
func TestAttach(t *testing.T) {
	c := &dynamic.Cache{}
	typ := c.Type((&fixturev1.Medium{}).ProtoReflect().Descriptor())
	if typ.Cache() != c {
		t.Fatal("Type.Cache is not the Cache that compiled it")
	}
	if typ.Attached() != nil {
		t.Fatalf("a new Type has %v attached", typ.Attached())
	}
	var wg sync.WaitGroup
	got := make([]any, 8)
	for i := range got {
		wg.Go(func() { got[i] = typ.Attach(new(int)) })
	}
	wg.Wait()
	for _, v := range got {
		if v != got[0] || typ.Attached() != got[0] {
			t.Fatalf("Attach gave %p, %p; Attached %p", v, got[0], typ.Attached())
		}
	}
}
