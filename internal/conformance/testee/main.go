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
	"context"
	"fmt"
	"os"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/internal/conformance"
	"github.com/rpckit/rpckit/schema"
	"github.com/rpckit/rpckit/transcode"
	"google.golang.org/protobuf/reflect/protoregistry"
)

func main() {
	if err := run(os.Getenv(conformance.SourceEnv)); err != nil {
		fmt.Fprintln(os.Stderr, "testee:", err)
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

// testee answers requests over the compiled test schemas.
type testee struct {
	files *protoregistry.Files
	types *schema.TypeResolver
}

func (s *testee) handle(req conformance.Request) conformance.Response {
	if r, skip := unsupported(req); skip {
		return r
	}
	md, err := conformance.FindMessage(s.files, req.MessageType)
	if err != nil {
		return conformance.Errorf(conformance.RuntimeError, "%v", err)
	}
	t := dynamic.TypeOf(md)
	wire, resp, ok := s.parse(t, req)
	if !ok {
		return resp
	}
	return s.serialize(t, req, wire)
}

// unsupported answers requests in the formats rpckit does not speak.
func unsupported(req conformance.Request) (conformance.Response, bool) {
	for _, f := range []conformance.Format{req.Input, req.Output} {
		if f == conformance.JSPB || f == conformance.TextFormat {
			return conformance.Errorf(conformance.Skipped, "format %d not supported", f), true
		}
	}
	return conformance.Response{}, false
}

// parse turns the request's payload into wire bytes, or answers with an
// error.
func (s *testee) parse(t *dynamic.Type, req conformance.Request) ([]byte, conformance.Response, bool) {
	switch req.Input {
	case conformance.Protobuf:
		if err := dynamic.Validate(t, req.Payload); err != nil {
			return nil, conformance.Errorf(conformance.ParseError, "%v", err), false
		}
		return req.Payload, conformance.Response{}, true
	case conformance.JSON:
		o := transcode.UnmarshalOptions{
			DiscardUnknown: req.Category == conformance.JSONIgnoreUnknownParsingTest,
			Resolver:       s.types,
		}
		wire, err := o.Unmarshal(t, req.Payload)
		if err != nil {
			return nil, conformance.Errorf(conformance.ParseError, "%v", err), false
		}
		if err := dynamic.Validate(t, wire); err != nil {
			return nil, conformance.Errorf(conformance.RuntimeError, "transcode.Unmarshal wrote malformed wire bytes: %v", err), false
		}
		return wire, conformance.Response{}, true
	}
	return nil, conformance.Errorf(conformance.RuntimeError, "no payload (input format %d)", req.Input), false
}

// serialize answers with wire in the requested output format. Binary input
// is re-encoded canonically (the suite compares some of it byte for byte);
// what transcode.Unmarshal wrote goes out as it is.
func (s *testee) serialize(t *dynamic.Type, req conformance.Request, wire []byte) conformance.Response {
	switch req.Output {
	case conformance.Protobuf:
		if req.Input != conformance.Protobuf {
			return conformance.Response{Result: conformance.ProtobufPayload, Data: wire}
		}
		out, err := conformance.Canonical(nil, t, wire)
		if err != nil {
			return conformance.Errorf(conformance.SerializeError, "%v", err)
		}
		return conformance.Response{Result: conformance.ProtobufPayload, Data: out}
	case conformance.JSON:
		out, err := transcode.MarshalOptions{Resolver: s.types}.Marshal(t, wire)
		if err != nil {
			return conformance.Errorf(conformance.SerializeError, "%v", err)
		}
		return conformance.Response{Result: conformance.JSONPayload, Data: out}
	}
	return conformance.Errorf(conformance.RuntimeError, "unknown output format %d", req.Output)
}
