package cli

import (
	"bytes"
	"testing"

	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/idl"
	"github.com/rpckit/rpckit/thrift/wire"
)

// An empty map in the compact protocol carries no types; in the binary
// protocol it gets the ones the IDL declares, and both ways validate.
func TestRecodeEmptyMap(t *testing.T) {
	f, err := idl.Parse("m.thrift", []byte("struct M { 1: map<string, i64> m  2: bool b  3: list<bool> l }"), idl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var cache dynamic.Cache
	typ := cache.Struct(f.Structs[0])
	var c []byte
	c = wire.Compact.AppendFieldHeader(c, wire.Map, 1, 0)
	c = wire.Compact.AppendMapHeader(c, wire.Stop, wire.Stop, 0)
	c = wire.Compact.AppendBoolField(c, 2, 1, true)
	c = wire.Compact.AppendFieldHeader(c, wire.List, 3, 2)
	c = wire.Compact.AppendListHeader(c, wire.Bool, 2)
	c = wire.Compact.AppendBool(wire.Compact.AppendBool(c, false), true)
	c = wire.Compact.AppendStop(c)
	if err := dynamic.Validate(typ, wire.Compact, c); err != nil {
		t.Fatalf("compact input: %v", err)
	}

	b, err := recode(nil, typ, wire.Compact, wire.Binary, c)
	if err != nil {
		t.Fatal(err)
	}
	var want []byte
	want = wire.Binary.AppendFieldHeader(want, wire.Map, 1, 0)
	want = wire.Binary.AppendMapHeader(want, wire.String, wire.I64, 0)
	want = wire.Binary.AppendBoolField(want, 2, 1, true)
	want = wire.Binary.AppendFieldHeader(want, wire.List, 3, 2)
	want = wire.Binary.AppendListHeader(want, wire.Bool, 2)
	want = wire.Binary.AppendBool(wire.Binary.AppendBool(want, false), true)
	want = wire.Binary.AppendStop(want)
	if !bytes.Equal(b, want) {
		t.Fatalf("binary:\n got % x\nwant % x", b, want)
	}
	back, err := recode(nil, typ, wire.Binary, wire.Compact, b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back, c) {
		t.Fatalf("back to compact:\n got % x\nwant % x", back, c)
	}
}

// Truncated input is an error, never a panic.
func TestRecodeTruncated(t *testing.T) {
	f, err := idl.Parse("m.thrift", []byte("struct M { 1: list<string> l }"), idl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var cache dynamic.Cache
	typ := cache.Struct(f.Structs[0])
	var b []byte
	b = wire.Binary.AppendFieldHeader(b, wire.List, 1, 0)
	b = wire.Binary.AppendListHeader(b, wire.String, 1)
	b = wire.Binary.AppendString(b, "hello")
	b = wire.Binary.AppendStop(b)
	for n := range len(b) {
		if _, err := recode(nil, typ, wire.Binary, wire.Compact, b[:n]); err == nil {
			t.Errorf("%d of %d bytes: no error", n, len(b))
		}
	}
}
