package conformance

import (
	"context"
	"io"

	"github.com/rpckit/rpckit/schema"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// Handler answers one request whose message type is md; types resolves
// Any and extensions over the test schemas.
type Handler func(req Request, md protoreflect.MessageDescriptor, types *schema.TypeResolver) Response

// ServeTestee is a testee's whole life: it compiles the test schemas from
// protobuf's source tree at root, then answers the runner's requests on r
// and w until r ends. Requests in JSPB or text format are skipped and an
// request with no payload, an unknown output format or an unknown message
// type is a runtime error before handle sees it: handle gets Protobuf or
// JSON in and out.
func ServeTestee(root string, r io.Reader, w io.Writer, handle Handler) error {
	files, err := CompileProtos(context.Background(), root)
	if err != nil {
		return err
	}
	types := schema.Types(files)
	return Serve(r, w, func(req Request) Response {
		return answer(files, types, req, handle)
	})
}

func answer(files *protoregistry.Files, types *schema.TypeResolver, req Request, handle Handler) Response {
	if r, ok := unsupported(req); ok {
		return r
	}
	md, err := FindMessage(files, req.MessageType)
	if err != nil {
		return Errorf(RuntimeError, "%v", err)
	}
	return handle(req, md, types)
}

// unsupported answers a request no testee handles.
func unsupported(req Request) (Response, bool) {
	for _, f := range []Format{req.Input, req.Output} {
		if f == JSPB || f == TextFormat {
			return Errorf(Skipped, "format %d not supported", f), true
		}
	}
	if req.Input != Protobuf && req.Input != JSON {
		return Errorf(RuntimeError, "no payload (input format %d)", req.Input), true
	}
	if req.Output != Protobuf && req.Output != JSON {
		return Errorf(RuntimeError, "unknown output format %d", req.Output), true
	}
	return Response{}, false
}
