package invoke

import (
	"bytes"
	"encoding/json"
	"fmt"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"
)

// JSONCodec converts messages between canonical proto3 JSON and the
// protobuf wire format. It is the one seam through which every rpckit tool
// turns JSON into requests and responses into JSON.
type JSONCodec interface {
	// Encode appends to dst the wire form of the JSON object in src, a
	// message of type md.
	Encode(dst []byte, md protoreflect.MessageDescriptor, src []byte) ([]byte, error)
	// Decode appends to dst the JSON form of the wire message in src.
	Decode(dst []byte, md protoreflect.MessageDescriptor, src []byte) ([]byte, error)
}

// JSONOptions are the output choices every JSONCodec honours; the zero
// value is canonical proto3 JSON.
type JSONOptions struct {
	EmitDefaults bool // fields with default values too
	ProtoNames   bool // proto field names instead of lowerCamelCase
	EnumsAsInts  bool // enum numbers instead of names
}

// Resolver finds message types by name or type URL (for Any) and
// extensions; schema.TypeResolver is one.
type Resolver interface {
	protoregistry.MessageTypeResolver
	protoregistry.ExtensionTypeResolver
}

// ProtoJSON is a JSONCodec built on protojson and dynamicpb. Its output is
// compact, with stable spacing.
type ProtoJSON struct {
	Options  JSONOptions
	Resolver Resolver
}

func (c ProtoJSON) Encode(dst []byte, md protoreflect.MessageDescriptor, src []byte) ([]byte, error) {
	msg := dynamicpb.NewMessage(md)
	opts := protojson.UnmarshalOptions{Resolver: c.Resolver}
	if err := opts.Unmarshal(src, msg); err != nil {
		return dst, fmt.Errorf("invoke: %s: %w", md.FullName(), err)
	}
	return proto.MarshalOptions{}.MarshalAppend(dst, msg)
}

func (c ProtoJSON) Decode(dst []byte, md protoreflect.MessageDescriptor, src []byte) ([]byte, error) {
	msg := dynamicpb.NewMessage(md)
	uopts := proto.UnmarshalOptions{Resolver: c.Resolver}
	if err := uopts.Unmarshal(src, msg); err != nil {
		return dst, fmt.Errorf("invoke: %s: bad response message: %w", md.FullName(), err)
	}
	mopts := protojson.MarshalOptions{
		EmitUnpopulated: c.Options.EmitDefaults,
		UseProtoNames:   c.Options.ProtoNames,
		UseEnumNumbers:  c.Options.EnumsAsInts,
		Resolver:        c.Resolver,
	}
	js, err := mopts.Marshal(msg)
	if err != nil {
		return dst, fmt.Errorf("invoke: %s: %w", md.FullName(), err)
	}
	// protojson varies its spacing on purpose; output here is stable.
	var out bytes.Buffer
	out.Write(dst)
	if err := json.Compact(&out, js); err != nil {
		return dst, fmt.Errorf("invoke: %s: %w", md.FullName(), err)
	}
	return out.Bytes(), nil
}
