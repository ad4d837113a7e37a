package dynamic_test

import (
	"bytes"
	"testing"

	"github.com/rpckit/rpckit/internal/thriftfixture"
	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/wire"
)

// fuzzPaths are the Medium paths the fuzz targets read and edit.
var fuzzPaths = []string{
	"title", "items[0].name", "items[3]", "counts[2]", `labels["a"]`, "head.blob",
	"totals[7]", "names[-1]", "byName[\"x\"].id", "level", "kinds[1]", "17",
}

func addFuzzSeeds(f *testing.F, p wire.Protocol) {
	for seed := range uint64(6) {
		b, err := thriftfixture.Encode(p, thriftfixture.Random("Medium", seed))
		if err != nil {
			f.Fatal(err)
		}
		if len(b) < 600 {
			f.Add(b)
		}
	}
	f.Add([]byte{0})
	f.Add([]byte{0x19, 0xfc, 0x00})
	f.Add([]byte{0x0f, 0x00, 0x02, 0x0c, 0x7f, 0xff, 0xff, 0xff})
}

// fuzzMedium: on any bytes, Validate, Get, Set, Delete and the DOM never
// panic and stay inside the input (the slice is capped, so a read past it
// would panic). Bytes Validate accepts the generated code reads too; they
// load into a Doc that serializes them back; every path Gets, and every
// Set and Delete gives bytes that validate.
func fuzzMedium(t *testing.T, p wire.Protocol, b []byte) {
	b = b[:len(b):len(b)]
	ty := thriftfixture.BenchType(t, "Medium")
	verr := dynamic.Validate(ty, p, b)
	v := dynamic.NewValue(ty, p, b)
	d := dynamic.NewDoc()
	derr := d.Load(ty, p, b)
	if verr != nil {
		for _, s := range fuzzPaths {
			v.Get(dynamic.MustParsePath(s))
			v.Delete(nil, dynamic.MustParsePath(s))
		}
		return
	}
	if err := thriftfixture.Decode(p, b, thriftfixture.New("Medium")); err != nil {
		t.Fatalf("Validate accepts, the generated code does not: %v", err)
	}
	if derr != nil || !bytes.Equal(d.Marshal(), b) {
		t.Fatalf("Validate accepts, the Doc does not round-trip: %v", derr)
	}
	for _, s := range fuzzPaths {
		path := dynamic.MustParsePath(s)
		got, err := v.Get(path)
		if err != nil {
			t.Fatalf("Get(%s) on valid bytes: %v", s, err)
		}
		if got.Exists() {
			out, err := v.Set(nil, path, dynamic.EncodedVal(got.Raw()))
			checkEdited(t, ty, p, s, out, err)
		}
		out, err := v.Delete(nil, path)
		checkEdited(t, ty, p, s, out, err)
	}
}

func checkEdited(t *testing.T, ty *dynamic.Type, p wire.Protocol, path string, out []byte, err error) {
	t.Helper()
	if err != nil {
		return // compact bools cannot be set from their (empty) raw bytes
	}
	if err := dynamic.Validate(ty, p, out); err != nil {
		t.Fatalf("edit of %s on valid bytes gives invalid ones: %v", path, err)
	}
}

func FuzzMediumBinary(f *testing.F) {
	addFuzzSeeds(f, wire.Binary)
	f.Fuzz(func(t *testing.T, b []byte) { fuzzMedium(t, wire.Binary, b) })
}

func FuzzMediumCompact(f *testing.F) {
	addFuzzSeeds(f, wire.Compact)
	f.Fuzz(func(t *testing.T, b []byte) { fuzzMedium(t, wire.Compact, b) })
}
