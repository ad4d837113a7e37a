// Package oracle holds the reference implementations rpckit's own code is
// tested against. Only tests import it: the tools run on transcode and
// dynamic, and protobuf-go's protojson and dynamicpb serve as the oracle.
package oracle

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/rpckit/rpckit/transcode"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
)

// ProtoJSON is an invoke.JSONCodec built on protojson and dynamicpb, the
// reference the tests hold invoke.Transcode and the tools to. Its output is
// compact, with stable spacing.
// Options are transcode's, read as protojson's: EmitUnpopulated,
// UseProtoNames, UseEnumNumbers and Resolver (both ways); Indent is not.
type ProtoJSON struct {
	Options transcode.MarshalOptions
}

func (c ProtoJSON) Encode(dst []byte, md protoreflect.MessageDescriptor, src []byte) ([]byte, error) {
	msg := dynamicpb.NewMessage(md)
	opts := protojson.UnmarshalOptions{Resolver: c.Options.Resolver}
	if err := opts.Unmarshal(src, msg); err != nil {
		return dst, fmt.Errorf("oracle: %s: %w", md.FullName(), err)
	}
	return proto.MarshalOptions{}.MarshalAppend(dst, msg)
}

func (c ProtoJSON) Decode(dst []byte, md protoreflect.MessageDescriptor, src []byte) ([]byte, error) {
	msg := dynamicpb.NewMessage(md)
	uopts := proto.UnmarshalOptions{Resolver: c.Options.Resolver}
	if err := uopts.Unmarshal(src, msg); err != nil {
		return dst, fmt.Errorf("oracle: %s: bad response message: %w", md.FullName(), err)
	}
	js, err := c.marshalOptions().Marshal(msg)
	if err == nil {
		dst, err = appendCompact(dst, js)
	}
	if err != nil {
		return dst, fmt.Errorf("oracle: %s: %w", md.FullName(), err)
	}
	return dst, nil
}

// marshalOptions are c's Options as protojson's.
func (c ProtoJSON) marshalOptions() protojson.MarshalOptions {
	return protojson.MarshalOptions{
		EmitUnpopulated: c.Options.EmitUnpopulated,
		UseProtoNames:   c.Options.UseProtoNames,
		UseEnumNumbers:  c.Options.UseEnumNumbers,
		Resolver:        c.Options.Resolver,
	}
}

// appendCompact appends js without its spacing: protojson varies it on
// purpose; output here is stable.
func appendCompact(dst, js []byte) ([]byte, error) {
	out := bytes.NewBuffer(dst)
	if err := json.Compact(out, js); err != nil {
		return dst, err
	}
	return out.Bytes(), nil
}
