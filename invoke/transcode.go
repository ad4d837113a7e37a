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
type Transcode struct {
	Options  JSONOptions
	Resolver Resolver // for Any and extensions; nil means the global registry
}

func (c Transcode) Encode(dst []byte, md protoreflect.MessageDescriptor, src []byte) ([]byte, error) {
	opts := transcode.UnmarshalOptions{Resolver: c.resolver()}
	out, err := opts.UnmarshalAppend(dst, dynamic.TypeOf(md), src)
	if err != nil {
		return dst, fmt.Errorf("invoke: %s: %w", md.FullName(), err)
	}
	return out, nil
}

func (c Transcode) Decode(dst []byte, md protoreflect.MessageDescriptor, src []byte) ([]byte, error) {
	opts := transcode.MarshalOptions{
		EmitUnpopulated: c.Options.EmitDefaults,
		UseProtoNames:   c.Options.ProtoNames,
		UseEnumNumbers:  c.Options.EnumsAsInts,
		Resolver:        c.resolver(),
	}
	out, err := opts.MarshalAppend(dst, dynamic.TypeOf(md), src)
	if err != nil {
		return dst, fmt.Errorf("invoke: %s: bad response message: %w", md.FullName(), err)
	}
	return out, nil
}

func (c Transcode) resolver() transcode.Resolver {
	if c.Resolver == nil {
		return nil
	}
	return c.Resolver
}
