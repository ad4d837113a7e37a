package transcode_test

import (
	"bytes"
	"testing"

	"github.com/rpckit/rpckit/internal/thriftfixture"
	"github.com/rpckit/rpckit/thrift/transcode"
	"github.com/rpckit/rpckit/thrift/wire"
)

// FuzzUnmarshal feeds JSON text to Unmarshal as a Medium, in both
// protocols: no panic, output bounded by the input, and what it accepts
// converts back to JSON that converts to the same bytes.
func FuzzUnmarshal(f *testing.F) {
	typ := benchType(f, "Medium")
	b, err := thriftfixture.Encode(wire.Binary, thriftfixture.Random("Medium", 1))
	if err != nil {
		f.Fatal(err)
	}
	j, err := transcode.Marshal(typ, b)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(j) // a random Medium: short seeds keep the fuzzer's minimising quick
	f.Add([]byte(`{"title":"t","items":[{"id":"1","blob":"-_8"}],"byName":{"k":{}},"level":"HIGH","totals":{"7":8}}`))
	f.Add([]byte(`{"counts":[1,2e3,-0],"ratio":"NaN","labels":{"a\u00e9":"\ud83d\ude00"}}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, p := range []wire.Protocol{wire.Binary, wire.Compact} {
			b, err := transcode.UnmarshalOptions{Protocol: p, DiscardUnknown: true}.Unmarshal(typ, in)
			if err != nil {
				continue
			}
			if len(b) > 8*len(in)+64 {
				t.Fatalf("%d bytes of JSON made %d of Thrift", len(in), len(b))
			}
			j, err := transcode.MarshalOptions{Protocol: p}.Marshal(typ, b)
			if err != nil {
				t.Fatalf("our own bytes do not convert back: %v\n%s", err, in)
			}
			b2, err := transcode.UnmarshalOptions{Protocol: p}.Unmarshal(typ, j)
			if err != nil || !bytes.Equal(b, b2) {
				t.Fatalf("round trip: %v\n%x\n%x\n%s", err, b, b2, j)
			}
		}
	})
}

// FuzzMarshal feeds bytes to Marshal as a Large, in both protocols: no
// panic, output bounded, and what it accepts converts to JSON that
// Unmarshal accepts and that comes out again the same.
func FuzzMarshal(f *testing.F) {
	typ := benchType(f, "Large")
	// Seeds of a few hundred bytes: a random Large (its map keyed by
	// Small included) and the Small specimen, whose fields a Large's
	// first field header reads differently. Kilobytes of seed make each
	// minimising step of the fuzzer slow.
	for _, pr := range thriftfixture.Protocols {
		b, err := thriftfixture.Encode(pr.Proto, thriftfixture.Random("Large", 1))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, pr.Proto == wire.Compact)
		f.Add(readSpecimen(f, "small", pr.Ext), pr.Proto == wire.Compact)
	}
	f.Fuzz(func(t *testing.T, in []byte, compact bool) {
		p := wire.Binary
		if compact {
			p = wire.Compact
		}
		j, err := transcode.MarshalOptions{Protocol: p}.Marshal(typ, in)
		if err != nil {
			return
		}
		if len(j) > 64*len(in)+64 {
			t.Fatalf("%d bytes of Thrift made %d of JSON", len(in), len(j))
		}
		b, err := transcode.UnmarshalOptions{Protocol: p}.Unmarshal(typ, j)
		if err != nil {
			t.Fatalf("our own JSON does not convert back: %v\n%s", err, j)
		}
		j2, err := transcode.MarshalOptions{Protocol: p}.Marshal(typ, b)
		if err != nil || !bytes.Equal(j, j2) {
			t.Fatalf("round trip: %v\n%s\n%s", err, j, j2)
		}
	})
}
