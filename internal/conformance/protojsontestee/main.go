// Command protojsontestee answers the protobuf conformance suite's requests
// with protobuf-go: proto and protojson over dynamicpb. It is the baseline
// that shows the harness sound: protojson passes the whole binary and JSON
// suite, so any failure of rpckit's testee under the same runner is
// rpckit's. JSPB and text format are skipped.
//
// The protocol and environment are those of ../testee.
package main

import (
	"fmt"
	"os"

	"github.com/rpckit/rpckit/internal/conformance"
	"github.com/rpckit/rpckit/schema"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
)

func main() {
	if err := conformance.ServeTestee(os.Getenv(conformance.SourceEnv), os.Stdin, os.Stdout, handle); err != nil {
		fmt.Fprintln(os.Stderr, "protojsontestee:", err)
		os.Exit(1)
	}
}

// handle answers one request with proto and protojson over dynamicpb.
func handle(req conformance.Request, md protoreflect.MessageDescriptor, types *schema.TypeResolver) conformance.Response {
	msg := dynamicpb.NewMessage(md)
	if err := parse(req, msg, types); err != nil {
		return conformance.Errorf(conformance.ParseError, "%v", err)
	}
	r, b, err := serialize(req.Output, msg, types)
	if err != nil {
		return conformance.Errorf(conformance.SerializeError, "%v", err)
	}
	return conformance.Response{Result: r, Data: b}
}

// parse reads the request's payload into msg.
func parse(req conformance.Request, msg *dynamicpb.Message, types *schema.TypeResolver) error {
	if req.Input == conformance.Protobuf {
		return proto.UnmarshalOptions{Resolver: types}.Unmarshal(req.Payload, msg)
	}
	return protojson.UnmarshalOptions{
		DiscardUnknown: req.Category == conformance.JSONIgnoreUnknownParsingTest,
		Resolver:       types,
	}.Unmarshal(req.Payload, msg)
}

// serialize writes msg in the output format out.
func serialize(out conformance.Format, msg *dynamicpb.Message, types *schema.TypeResolver) (conformance.Result, []byte, error) {
	if out == conformance.Protobuf {
		// Deterministic: dynamicpb ranges over its fields in map order;
		// deterministic output orders them by number, as the suite's
		// byte-exact binary tests expect.
		b, err := proto.MarshalOptions{Deterministic: true}.Marshal(msg)
		return conformance.ProtobufPayload, b, err
	}
	b, err := protojson.MarshalOptions{Resolver: types}.Marshal(msg)
	return conformance.JSONPayload, b, err
}
