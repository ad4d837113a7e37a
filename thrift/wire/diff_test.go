package wire_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/rpckit/rpckit/internal/gen/thrift/rpckit/bench"
	"github.com/rpckit/rpckit/internal/thriftfixture"
	"github.com/rpckit/rpckit/thrift/wire"
)

// checkStruct holds this package against the Apache library on the
// encoding b of a struct: walking its fields with Iter and Skip consumes
// exactly b, reading every value gives the tree the Apache library reads,
// re-appending that tree gives b again, and so does re-appending the
// fields one by one from their raw value bytes.
func checkStruct(t *testing.T, p wire.Protocol, b []byte) {
	t.Helper()
	end, err := p.Skip(b, 0, wire.Struct)
	if err != nil || end != len(b) {
		t.Fatalf("Skip = %d, %v; want %d", end, err, len(b))
	}
	got, end, err := readTree(p, b, 0, wire.Struct)
	if err != nil || end != len(b) {
		t.Fatalf("reading the tree: end %d of %d, %v", end, len(b), err)
	}
	buf := thrift.NewTMemoryBuffer()
	buf.Write(b)
	want, err := apacheRead(thriftfixture.Protocol(p, buf), wire.Struct)
	if err != nil {
		t.Fatalf("Apache library: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("tree differs from the Apache library's:\n got %v\nwant %v", got, want)
	}
	if again := appendTree(p, nil, wire.Struct, got); !bytes.Equal(again, b) {
		t.Fatalf("re-appending the tree gives other bytes:\n got %x\nwant %x", again, b)
	}
	if again := appendFields(t, p, b); !bytes.Equal(again, b) {
		t.Fatalf("re-appending field by field gives other bytes")
	}
}

// appendFields re-appends the struct b field by field: headers from the
// iterator's fields, values from their raw bytes.
func appendFields(t *testing.T, p wire.Protocol, b []byte) []byte {
	var out []byte
	last := int16(0)
	it := wire.NewIter(p, b, 0)
	for it.Next() {
		f := it.Field()
		if p == wire.Compact && f.Type == wire.Bool {
			out = p.AppendBoolField(out, f.ID, last, f.Bool)
		} else {
			out = p.AppendFieldHeader(out, f.Type, f.ID, last)
		}
		out = append(out, f.Payload(b)...)
		last = f.ID
	}
	if it.Err() != nil || it.Offset() != len(b) {
		t.Fatalf("iterating: stopped at %d of %d, %v", it.Offset(), len(b), it.Err())
	}
	return p.AppendStop(out)
}

func TestSpecimens(t *testing.T) {
	for _, s := range thriftfixture.Specimens {
		for _, pr := range thriftfixture.Protocols {
			t.Run(s.Name+"."+pr.Ext, func(t *testing.T) {
				checkStruct(t, pr.Proto, readSpecimen(t, s.Name, pr.Ext))
			})
		}
	}
}

// TestRandomBenchValues runs checkStruct on random values of every
// struct of bench.thrift, encoded by the generated code.
func TestRandomBenchValues(t *testing.T) {
	for _, name := range thriftfixture.Names {
		for _, pr := range thriftfixture.Protocols {
			t.Run(name+"."+pr.Ext, func(t *testing.T) {
				for seed := range uint64(40) {
					b, err := thriftfixture.Encode(pr.Proto, thriftfixture.Random(name, seed))
					if err != nil {
						t.Fatalf("seed %d: %v", seed, err)
					}
					checkStruct(t, pr.Proto, b)
				}
			})
		}
	}
}

// TestRandomTrees runs checkStruct on random structs of every wire type
// (bool, i16 and uuid included, which bench.thrift lacks) written by the
// Apache library's protocols, and checks that this package appends the
// same bytes as the library writes.
func TestRandomTrees(t *testing.T) {
	for _, pr := range thriftfixture.Protocols {
		t.Run(pr.Ext, func(t *testing.T) {
			g := treeGen{rand.New(rand.NewPCG(1, 2))}
			for i := range 500 {
				tree := g.structValue(4)
				b := apacheBytes(t, pr.Proto, tree)
				if mine := appendTree(pr.Proto, nil, wire.Struct, tree); !bytes.Equal(mine, b) {
					t.Fatalf("tree %d: appended %x, Apache library %x", i, mine, b)
				}
				checkStruct(t, pr.Proto, b)
			}
		})
	}
}

func apacheBytes(t *testing.T, p wire.Protocol, s structNode) []byte {
	buf := thrift.NewTMemoryBuffer()
	prot := thriftfixture.Protocol(p, buf)
	if err := apacheWrite(prot, wire.Struct, s); err != nil {
		t.Fatal(err)
	}
	if err := prot.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestSmallScalars reads each field of the Small specimen with the value
// readers and compares it with what the generated code reads.
func TestSmallScalars(t *testing.T) {
	for _, pr := range thriftfixture.Protocols {
		b := readSpecimen(t, "small", pr.Ext)
		want := bench.NewSmall()
		if err := thriftfixture.Decode(pr.Proto, b, want); err != nil {
			t.Fatal(err)
		}
		got := &bench.Small{}
		it := wire.NewIter(pr.Proto, b, 0)
		for it.Next() {
			if err := readSmallField(pr.Proto, b, it.Field(), got); err != nil {
				t.Fatalf("%s: %v", pr.Ext, err)
			}
		}
		if it.Err() != nil || !got.Equals(want) {
			t.Errorf("%s: read %v (%v); the generated code reads %v", pr.Ext, got, it.Err(), want)
		}
	}
}

func readSmallField(p wire.Protocol, b []byte, f wire.Field, s *bench.Small) (err error) {
	switch f.ID {
	case 1:
		s.Tiny, _, err = p.ConsumeByte(b, f.Value)
	case 2:
		s.ID, _, err = p.ConsumeI64(b, f.Value)
	case 3:
		s.Score, _, err = p.ConsumeDouble(b, f.Value)
	case 4:
		s.Count, _, err = p.ConsumeI32(b, f.Value)
	case 5:
		var v []byte
		v, _, err = p.ConsumeBinary(b, f.Value)
		s.Name = string(v)
	case 6:
		s.Blob, _, err = p.ConsumeBinary(b, f.Value)
	default:
		err = fmt.Errorf("unexpected field %d", f.ID)
	}
	return err
}
