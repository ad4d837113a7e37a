package dynamic_test

import (
	"sync"
	"testing"

	"github.com/rpckit/rpckit/internal/thriftfixture"
	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/idl"
	"github.com/rpckit/rpckit/thrift/wire"
)

// TestCompile: a compiled Type has the IDL's tables: fields by id and by
// name, resolved kinds with typedefs looked through, element, key and
// value Types, requiredness, annotations through the declarations, and
// one Type per declaration, also for recursive types and concurrent use.
func TestCompile(t *testing.T) {
	m := thriftfixture.BenchType(t, "Medium")
	if len(m.Fields) != 18 || m.FieldByID(15) != m.FieldByName("byName") || m.FieldByID(19) != nil || m.FieldByID(-1) != nil {
		t.Fatal("Medium's field tables are wrong")
	}
	by := m.FieldByName("byName").Type
	if by.Kind != idl.MapKind || by.Key.Wire != wire.String || by.Elem != thriftfixture.BenchType(t, "Small") {
		t.Fatalf("byName: %v key %v elem %p", by.Kind, by.Key.Wire, by.Elem)
	}
	at := m.FieldByName("at")
	if at.Type.Kind != idl.I64Kind || at.Type.IDL.Kind != idl.TypedefKind || at.Required != idl.Optional {
		t.Fatalf("at: %v %v %v", at.Type.Kind, at.Type.IDL.Kind, at.Required)
	}
	if lv := m.FieldByName("level").Type; lv.Kind != idl.EnumKind || lv.Wire != wire.I32 || lv.Enum.Value("HIGH").Value != 3 {
		t.Fatal("level is not the enum Level")
	}
	if v, _ := m.FieldByName("title").IDL.Annotations.Get("api.header"); v != "X-Title" {
		t.Fatalf("title's api.header = %q", v)
	}
	if got := m.Attach("plan"); got != "plan" || m.Attach("other") != "plan" || m.Attached() != "plan" {
		t.Fatal("Attach keeps the first value")
	}
	f, err := parseIDL([]byte(`struct Tree { 1: required list<Tree> kids, -5: i32 far, 30000: string farther }`))
	if err != nil {
		t.Fatal(err)
	}
	var c dynamic.Cache
	var wg sync.WaitGroup
	types := make([]*dynamic.Type, 8)
	for i := range types {
		wg.Go(func() { types[i] = c.Type(f.Type("Tree")) })
	}
	wg.Wait()
	tree := types[0]
	for _, ty := range types {
		if ty != tree {
			t.Fatal("two Types for one declaration")
		}
	}
	if tree.FieldByName("kids").Type.Elem != tree || len(tree.Required) != 1 ||
		tree.FieldByID(tree.FieldByName("far").ID) == nil || tree.FieldByID(30000) == nil || tree.FieldByID(2) != nil {
		t.Fatal("Tree's tables are wrong")
	}
}
