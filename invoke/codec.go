package invoke

import (
	"fmt"

	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
)

// rawCodec passes protobuf wire bytes through unchanged. Messages are
// *[]byte on receive and []byte or *[]byte on send.
type rawCodec struct{}

var _ encoding.CodecV2 = rawCodec{}

func (rawCodec) Name() string { return "proto" }

func (rawCodec) Marshal(v any) (mem.BufferSlice, error) {
	switch m := v.(type) {
	case []byte:
		return mem.BufferSlice{mem.SliceBuffer(m)}, nil
	case *[]byte:
		return mem.BufferSlice{mem.SliceBuffer(*m)}, nil
	}
	return nil, fmt.Errorf("invoke: codec cannot send %T", v)
}

func (rawCodec) Unmarshal(data mem.BufferSlice, v any) error {
	m, ok := v.(*[]byte)
	if !ok {
		return fmt.Errorf("invoke: codec cannot receive into %T", v)
	}
	*m = data.Materialize()
	return nil
}
