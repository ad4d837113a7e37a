package transcode

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/internal/fixture"
	fixturev1 "github.com/rpckit/rpckit/internal/gen/rpckit/fixture/v1"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// compactSets are the option sets the compact loop prints: compact output
// without unpopulated fields, with JSON or proto names, enum names or
// numbers.
var compactSets = []MarshalOptions{{}, {UseProtoNames: true}, {UseEnumNumbers: true}, {UseProtoNames: true, UseEnumNumbers: true}}

// checkCompact holds the compact loop to the general path (scan, then
// print) on wire read as a message of md with the options o, one of
// compactSets: the same output byte for byte, or the same error. The
// general path is held to protojson under every option by the other tests.
func checkCompact(t testing.TB, what string, md protoreflect.MessageDescriptor, wire []byte, o MarshalOptions) {
	t.Helper()
	p := planOf(dynamic.TypeOf(md))
	var ce, de encoder
	ce.reset(&o, wire, nil)
	de.reset(&o, wire, nil)
	if !ce.compact {
		t.Fatalf("%s do not choose the compact loop", optString(o))
	}
	de.compact = false // no direct path: the general one
	got, gotErr := ce.convert(p)
	want, wantErr := de.convert(p)
	switch {
	case (gotErr == nil) != (wantErr == nil):
		t.Fatalf("%s %s: compact loop: %v, %s\ngeneral path: %v, %s", what, optString(o), gotErr, got, wantErr, want)
	case gotErr != nil:
		if gotErr.Error() != wantErr.Error() {
			t.Fatalf("%s %s: compact loop fails with %q, general path with %q", what, optString(o), gotErr, wantErr)
		}
	case !bytes.Equal(got, want):
		t.Fatalf("%s %s: compact loop prints\n%s\ngeneral path\n%s", what, optString(o), got, want)
	}
}

// TestCompactMatchesGeneral runs checkCompact on random messages of the
// rich, well-known and legacy fixtures, as serialized and mangled, with
// records of zero values and invalid UTF-8 added, and on every prefix of
// the benchmark messages: with the default options, and with the
// compactSets in turn.
func TestCompactMatchesGeneral(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	for i := range 3000 {
		var m proto.Message
		switch i % 3 {
		case 0:
			m = fixture.RandomRich(r)
		case 1:
			m = fixture.RandomKnown(r)
		default:
			m = []proto.Message{legacyFull(), fixture.Small(), fixture.Medium()}[r.IntN(3)]
		}
		wire, err := proto.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		md := m.ProtoReflect().Descriptor()
		o := compactSets[i%len(compactSets)]
		checkCompact(t, fmt.Sprintf("message %d\nwire %x", i, wire), md, wire, MarshalOptions{})
		checkCompact(t, fmt.Sprintf("message %d\nwire %x", i, wire), md, wire, o)
		mangled := appendZeroRecords(r, md, mangle(r, md, wire))
		checkCompact(t, fmt.Sprintf("message %d mangled\nwire %x", i, mangled), md, mangled, MarshalOptions{})
		checkCompact(t, fmt.Sprintf("message %d mangled\nwire %x", i, mangled), md, mangled, o)
	}
	checkedErrors(t)
	for _, m := range []proto.Message{fixture.Small(), fixture.Medium(), legacyFull()} {
		wire, err := proto.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		for n := range wire {
			checkCompact(t, fmt.Sprintf("prefix %d\nwire %x", n, wire[:n]), m.ProtoReflect().Descriptor(), wire[:n], compactSets[n%len(compactSets)])
		}
	}
}

// checkedErrors runs checkCompact on messages whose errors the compact
// loop reports itself: a leaf whose records are out of order comes first,
// so that the direct path gives up on it and checks every later message
// with sub-messages before printing it; the error is then final, in a
// checked child, and its path comes from the compact loop. The bad string
// is in the first and in the second element of a list, and in a singular
// message field.
func checkedErrors(t *testing.T) {
	bytesRec := func(b []byte, num protowire.Number, v []byte) []byte {
		return protowire.AppendBytes(protowire.AppendTag(b, num, protowire.BytesType), v)
	}
	leafOK := bytesRec(nil, 1, []byte("ok"))
	leafBad := bytesRec(nil, 1, []byte("b\xffd"))
	// Leaf{id: 1, name: "a"}, its fields out of order
	unordered := bytesRec(protowire.AppendVarint(protowire.AppendTag(nil, 2, protowire.VarintType), 1), 1, []byte("a"))
	md := (&fixturev1.Rich{}).ProtoReflect().Descriptor()
	for i, child := range [][]byte{
		bytesRec(bytesRec(nil, 46, leafBad), 46, leafOK),
		bytesRec(bytesRec(nil, 46, leafOK), 46, leafBad),
		bytesRec(nil, 46, bytesRec(leafOK, 4, leafBad)),
		bytesRec(nil, 17, leafBad),
	} {
		wire := bytesRec(bytesRec(nil, 17, unordered), 18, child)
		for _, o := range compactSets {
			checkCompact(t, fmt.Sprintf("checked error %d\nwire %x", i, wire), md, wire, o)
		}
		if _, err := Marshal(dynamic.TypeOf(md), wire); err == nil {
			t.Fatalf("checked error %d: no error", i)
		}
	}
}
