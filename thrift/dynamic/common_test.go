package dynamic_test

import (
	"bytes"
	"testing"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/rpckit/rpckit/internal/thriftfixture"
	"github.com/rpckit/rpckit/thrift/idl"
	"github.com/rpckit/rpckit/thrift/wire"
)

// decode decodes b with the generated code into a new value of the named
// struct.
func decode(t testing.TB, p wire.Protocol, name string, b []byte) thrift.TStruct {
	t.Helper()
	s := thriftfixture.New(name)
	if err := thriftfixture.Decode(p, b, s); err != nil {
		t.Fatalf("generated code cannot read the bytes: %v", err)
	}
	return s
}

// encode encodes s with the generated code.
func encode(t testing.TB, p wire.Protocol, s thrift.TStruct) []byte {
	t.Helper()
	b, err := thriftfixture.Encode(p, s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// corpus is every value the differential tests run on: the specimens and
// random values of every struct, with their encodings in both protocols.
type sample struct {
	name  string // struct name
	label string
	p     wire.Protocol
	b     []byte
	v     thrift.TStruct
}

func corpus(t testing.TB, randoms int) []sample {
	var out []sample
	for _, pr := range thriftfixture.Protocols {
		for _, s := range thriftfixture.Specimens {
			out = append(out, sample{s.Type, s.Name + "." + pr.Ext, pr.Proto, thriftfixture.ReadSpecimen(t, s.Name, pr.Ext), s.Value()})
		}
		for _, name := range thriftfixture.Names {
			for seed := range uint64(randoms) {
				v := thriftfixture.Random(name, seed)
				out = append(out, sample{name, name + "." + pr.Ext + "." + itoa(int(seed)), pr.Proto, encode(t, pr.Proto, v), v})
			}
		}
	}
	return out
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

func parseIDL(src []byte) (*idl.File, error) { return idl.Parse("t.thrift", src, idl.Options{}) }

// sameValue reports whether two generated values are equal: their
// encodings, map entries sorted, are (maps keyed by struct pointers defeat
// reflect.DeepEqual).
func sameValue(t testing.TB, p wire.Protocol, a, b thrift.TStruct) bool {
	return bytes.Equal(encode(t, p, a), encode(t, p, b))
}
