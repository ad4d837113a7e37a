package invoke

import (
	"fmt"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/transcode"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Transcode is the JSONCodec of every rpckit tool: package transcode over
// dynamic's compiled types, one pass each way, no dynamicpb. Its output is
// compact canonical proto3 JSON, byte for byte what protojson prints (the
// tests compare it with internal/oracle.ProtoJSON).
//
// Options are transcode's own: the output choices, and the Resolver of
// Any and extensions both ways (nil means the global registry).
type Transcode struct {
	Options transcode.MarshalOptions
}

func (c Transcode) Encode(dst []byte, md protoreflect.MessageDescriptor, src []byte) ([]byte, error) {
	opts := transcode.UnmarshalOptions{Resolver: c.Options.Resolver}
	out, err := opts.UnmarshalAppend(dst, dynamic.TypeOf(md), src)
	if err != nil {
		return dst, fmt.Errorf("invoke: %s: %w", md.FullName(), err)
	}
	return out, nil
}

func (c Transcode) Decode(dst []byte, md protoreflect.MessageDescriptor, src []byte) ([]byte, error) {
	out, err := c.Options.MarshalAppend(dst, dynamic.TypeOf(md), src)
	if err != nil {
		return dst, fmt.Errorf("invoke: %s: bad response message: %w", md.FullName(), err)
	}
	return out, nil
}
