package dynamic_test

import (
	"testing"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/internal/fixture"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

func mediumValue(t testing.TB) dynamic.Value {
	t.Helper()
	m := fixture.Medium()
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return dynamic.NewValue(typeOf(m), b)
}

func TestAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	v := mediumValue(t)
	fm, err := dynamic.NewFieldMask(v.Type(), "id", "header.meta.origin", "statuses", "counters", "index.name")
	if err != nil {
		t.Fatal(err)
	}
	dst := make([]byte, 0, 2*len(v.Bytes()))
	deep, inMap, inList := mustPath(t, "header.meta.origin.port"), mustPath(t, `index["key-alpha"].origin.host`), mustPath(t, "entries[7].tags[2]")
	region, price, attr := mustPath(t, "header.meta.region"), mustPath(t, "entries[3].price"), mustPath(t, `attributes["attr.alpha.0"]`)
	tests := []struct {
		name string
		max  float64
		fn   func()
	}{
		{"Get deep", 0, func() { _, _ = v.Get(deep) }},
		{"Get map", 0, func() { _, _ = v.Get(inMap) }},
		{"Get list", 0, func() { _, _ = v.Get(inList) }},
		{"Validate", 0, func() { _ = v.Validate() }},
		{"Set into dst", 0, func() { _, _ = v.Set(dst[:0], region, protoreflect.ValueOfString("x")) }},
		{"Set allocating", 1, func() { _, _ = v.Set(nil, price, protoreflect.ValueOfFloat64(2)) }},
		{"Delete into dst", 0, func() { _, _ = v.Delete(dst[:0], attr) }},
		{"Keep into dst", 0, func() { _, _ = v.Keep(dst[:0], fm) }},
		{"Mask allocating", 1, func() { _, _ = v.Mask(nil, fm) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if n := testing.AllocsPerRun(50, tc.fn); n > tc.max {
				t.Fatalf("%v allocations, want <= %v", n, tc.max)
			}
		})
	}
}
