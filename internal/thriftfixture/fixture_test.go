package thriftfixture_test

import (
	"bytes"
	"testing"

	"github.com/rpckit/rpckit/internal/thriftfixture"
	"github.com/rpckit/rpckit/thrift/wire"
)

// checkRoundTrip reads b with the generated code and checks that it
// encodes to b again. (The generated Equals compares Large's Small-keyed
// map by pointer, so equal encodings stand for equal values.)
func checkRoundTrip(t *testing.T, s thriftfixture.Specimen, p wire.Protocol, b []byte) {
	t.Helper()
	v := thriftfixture.New(s.Type)
	if err := thriftfixture.Decode(p, b, v); err != nil {
		t.Fatalf("%s %v: %v", s.Name, p, err)
	}
	again, err := thriftfixture.Encode(p, v)
	if err != nil || !bytes.Equal(again, b) {
		t.Errorf("%s %v: re-encoding gives other bytes (%v)", s.Name, p, err)
	}
}

// TestRandomIsDeterministic: the same seed gives the same bytes, other
// seeds other bytes.
func TestRandomIsDeterministic(t *testing.T) {
	for _, name := range thriftfixture.Names {
		a, _ := thriftfixture.Encode(wire.Binary, thriftfixture.Random(name, 7))
		b, _ := thriftfixture.Encode(wire.Binary, thriftfixture.Random(name, 7))
		if !bytes.Equal(a, b) {
			t.Errorf("%s: seed 7 gave two encodings", name)
		}
	}
}
