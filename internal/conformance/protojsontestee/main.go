// Command protojsontestee answers the protobuf conformance suite's requests
// with protobuf-go: proto and protojson over dynamicpb. It is the baseline
// that shows the harness sound: protojson passes the whole binary and JSON
// suite, so any failure of rpckit's testee under the same runner is
// rpckit's. JSPB and text format are skipped.
//
// The protocol and environment are those of ../testee.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/rpckit/rpckit/internal/conformance"
	"github.com/rpckit/rpckit/schema"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"
)

func main() {
	if err := run(os.Getenv(conformance.SourceEnv)); err != nil {
		fmt.Fprintln(os.Stderr, "protojsontestee:", err)
		os.Exit(1)
	}
}

func run(protos string) error {
	files, err := conformance.CompileProtos(context.Background(), protos)
	if err != nil {
		return err
	}
	t := &testee{files: files, types: schema.Types(files)}
	return conformance.Serve(os.Stdin, os.Stdout, t.handle)
}

type testee struct {
	files *protoregistry.Files
	types *schema.TypeResolver
}

func (s *testee) handle(req conformance.Request) conformance.Response {
	for _, f := range []conformance.Format{req.Input, req.Output} {
		if f == conformance.JSPB || f == conformance.TextFormat {
			return conformance.Errorf(conformance.Skipped, "format %d not supported", f)
		}
	}
	md, err := conformance.FindMessage(s.files, req.MessageType)
	if err != nil {
		return conformance.Errorf(conformance.RuntimeError, "%v", err)
	}
	msg := dynamicpb.NewMessage(md)
	switch req.Input {
	case conformance.Protobuf:
		err = proto.UnmarshalOptions{Resolver: s.types}.Unmarshal(req.Payload, msg)
	case conformance.JSON:
		err = protojson.UnmarshalOptions{
			DiscardUnknown: req.Category == conformance.JSONIgnoreUnknownParsingTest,
			Resolver:       s.types,
		}.Unmarshal(req.Payload, msg)
	default:
		return conformance.Errorf(conformance.RuntimeError, "no payload (input format %d)", req.Input)
	}
	if err != nil {
		return conformance.Errorf(conformance.ParseError, "%v", err)
	}
	return s.serialize(req.Output, msg)
}

func (s *testee) serialize(out conformance.Format, msg *dynamicpb.Message) conformance.Response {
	var (
		b   []byte
		err error
		r   conformance.Result
	)
	switch out {
	case conformance.Protobuf:
		r = conformance.ProtobufPayload
		// Deterministic: dynamicpb ranges over its fields in map order;
		// deterministic output orders them by number, as the suite's
		// byte-exact binary tests expect.
		b, err = proto.MarshalOptions{Deterministic: true}.Marshal(msg)
	case conformance.JSON:
		r = conformance.JSONPayload
		b, err = protojson.MarshalOptions{Resolver: s.types}.Marshal(msg)
	default:
		return conformance.Errorf(conformance.RuntimeError, "unknown output format %d", out)
	}
	if err != nil {
		return conformance.Errorf(conformance.SerializeError, "%v", err)
	}
	return conformance.Response{Result: r, Data: b}
}
