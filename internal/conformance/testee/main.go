// Command testee answers the protobuf conformance suite's requests with
// rpckit: binary input is checked by dynamic.Validate and re-encoded
// canonically, JSON goes through transcode.Unmarshal and transcode.Marshal.
// JSPB and text format are skipped: rpckit speaks neither.
//
// It reads length-prefixed ConformanceRequests on stdin and writes
// ConformanceResponses on stdout until stdin ends. The test schemas are
// compiled at start-up from protobuf's source tree, named by
// $RPCKIT_CONFORMANCE_PROTOBUF_SRC (the runner passes its testee no flags
// of its own).
package main

import (
	"fmt"
	"os"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/internal/conformance"
	"github.com/rpckit/rpckit/schema"
	"github.com/rpckit/rpckit/transcode"
	"google.golang.org/protobuf/reflect/protoreflect"
)

func main() {
	if err := conformance.ServeTestee(os.Getenv(conformance.SourceEnv), os.Stdin, os.Stdout, handle); err != nil {
		fmt.Fprintln(os.Stderr, "testee:", err)
		os.Exit(1)
	}
}

// handle answers one request over the compiled test schemas.
func handle(req conformance.Request, md protoreflect.MessageDescriptor, types *schema.TypeResolver) conformance.Response {
	t := dynamic.TypeOf(md)
	wire, err := parse(t, req, types)
	if err != nil {
		return conformance.Errorf(conformance.ParseError, "%v", err)
	}
	if req.Input == conformance.JSON {
		if err := dynamic.Validate(t, wire); err != nil {
			return conformance.Errorf(conformance.RuntimeError, "transcode.Unmarshal wrote malformed wire bytes: %v", err)
		}
	}
	if req.Output == conformance.JSON {
		out, err := transcode.MarshalOptions{Resolver: types}.Marshal(t, wire)
		return payload(conformance.JSONPayload, out, err)
	}
	if req.Input == conformance.JSON {
		return conformance.Response{Result: conformance.ProtobufPayload, Data: wire}
	}
	out, err := conformance.Canonical(nil, t, wire)
	return payload(conformance.ProtobufPayload, out, err)
}

// parse turns the request's payload into wire bytes: binary input is
// checked by dynamic.Validate, JSON goes through transcode.Unmarshal.
func parse(t *dynamic.Type, req conformance.Request, types *schema.TypeResolver) ([]byte, error) {
	if req.Input == conformance.Protobuf {
		return req.Payload, dynamic.Validate(t, req.Payload)
	}
	return transcode.UnmarshalOptions{
		DiscardUnknown: req.Category == conformance.JSONIgnoreUnknownParsingTest,
		Resolver:       types,
	}.Unmarshal(t, req.Payload)
}

// payload answers with out as r, or with the error that serializing met.
// Binary input goes out re-encoded canonically (the suite compares some
// of it byte for byte); what transcode.Unmarshal wrote goes out as it is.
func payload(r conformance.Result, out []byte, err error) conformance.Response {
	if err != nil {
		return conformance.Errorf(conformance.SerializeError, "%v", err)
	}
	return conformance.Response{Result: r, Data: out}
}
