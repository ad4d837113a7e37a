package gateway

import (
	"io"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/schema"
	"github.com/rpckit/rpckit/transcode"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// codec converts between canonical proto3 JSON and the wire format with
// transcode, one pass each way, over types compiled once per reload (a
// reload drops the old ones). It is an invoke.JSONCodec, for status
// bodies.
type codec struct {
	types     *dynamic.Cache
	marshal   transcode.MarshalOptions
	unmarshal transcode.UnmarshalOptions
}

// newCodec resolves Any and extensions in files, then the linked-in types.
func newCodec(files *protoregistry.Files) *codec {
	r := schema.Types(files)
	return &codec{
		types:     &dynamic.Cache{},
		marshal:   transcode.MarshalOptions{Resolver: r},
		unmarshal: transcode.UnmarshalOptions{Resolver: r},
	}
}

// Encode appends the wire form of the JSON message js of type md to dst;
// appended to a message, it merges into it.
func (c *codec) Encode(dst []byte, md protoreflect.MessageDescriptor, js []byte) ([]byte, error) {
	return c.unmarshal.UnmarshalAppend(dst, c.types.Type(md), js)
}

// decoder reads a stream of JSON messages of type md from r.
func (c *codec) decoder(r io.Reader, md protoreflect.MessageDescriptor) *transcode.Decoder {
	return transcode.NewDecoder(r, c.types.Type(md), c.unmarshal)
}

// Decode appends the JSON form of the wire message of type md to dst.
func (c *codec) Decode(dst []byte, md protoreflect.MessageDescriptor, wire []byte) ([]byte, error) {
	return c.marshal.MarshalAppend(dst, c.types.Type(md), wire)
}
