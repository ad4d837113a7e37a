package invoke_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/rpckit/rpckit/internal/fixture"
	"github.com/rpckit/rpckit/internal/oracle"
	"github.com/rpckit/rpckit/invoke"
	"github.com/rpckit/rpckit/transcode"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// The transcode codec prints what the protojson one prints, byte for
// byte, and reads what it reads, on random messages with every option.
func TestTranscodeMatchesProtoJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for i := range 300 {
		msg := proto.Message(fixture.RandomRich(r))
		if i%2 == 1 {
			msg = fixture.RandomKnown(r)
		}
		md := msg.ProtoReflect().Descriptor()
		wire, err := proto.Marshal(msg)
		if err != nil {
			t.Fatal(err)
		}
		opts := transcode.MarshalOptions{EmitUnpopulated: i%3 == 0, UseProtoNames: i%5 == 0, UseEnumNumbers: i%7 == 0,
			Resolver: protoregistry.GlobalTypes}
		ours := invoke.Transcode{Options: opts}
		theirs := oracle.ProtoJSON{Options: opts}
		want, err := theirs.Decode(nil, md, wire)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ours.Decode(nil, md, wire)
		if err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("message %d (%s, %+v):\n got %s\nwant %s", i, md.FullName(), opts, got, want)
		}
		// Reading it back gives what protojson reads (not always msg: an
		// unset Value printed with EmitDefaults is null, which reads back
		// as a null Value, in both).
		back, err := ours.Encode(nil, md, got)
		if err != nil {
			t.Fatalf("message %d: encode: %v", i, err)
		}
		ref, err := theirs.Encode(nil, md, got)
		if err != nil {
			t.Fatal(err)
		}
		a, b := msg.ProtoReflect().New().Interface(), msg.ProtoReflect().New().Interface()
		if err := errors.Join(proto.Unmarshal(back, a), proto.Unmarshal(ref, b)); err != nil || !proto.Equal(a, b) {
			t.Fatalf("message %d: read back differently from protojson (%v)", i, err)
		}
	}
}
