package invoke

import (
	"fmt"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// protoCodec is connect-go's "proto" codec over wire bytes: messages pass
// through as they are. Received bytes are copied out of connect-go's
// pooled buffers. connect-go also decodes gRPC-Web's status details with
// the codec named "proto", so generated messages go through protobuf-go.
type protoCodec struct{}

func (protoCodec) Name() string { return "proto" }

func (protoCodec) Marshal(v any) ([]byte, error) {
	f, ok := v.(*frame)
	if m, isProto := v.(proto.Message); isProto {
		return proto.Marshal(m)
	}
	if !ok {
		return nil, fmt.Errorf("invoke: codec cannot send %T", v)
	}
	return f.b, nil
}

func (protoCodec) Unmarshal(data []byte, v any) error {
	f, ok := v.(*frame)
	if m, isProto := v.(proto.Message); isProto {
		return proto.Unmarshal(data, m)
	}
	if !ok {
		return fmt.Errorf("invoke: codec cannot receive into %T", v)
	}
	f.b = append([]byte{}, data...)
	return nil
}

// MarshalStable and IsBinary let Connect send GET requests: wire bytes
// encoded once are as stable as they come.
func (c protoCodec) MarshalStable(v any) ([]byte, error) { return c.Marshal(v) }
func (protoCodec) IsBinary() bool                        { return true }

// jsonCodec is connect-go's "json" codec for one method: requests go out
// as canonical proto3 JSON of the input type, responses come back from
// JSON of the output type, both through js.
type jsonCodec struct {
	js      JSONCodec
	in, out protoreflect.MessageDescriptor
}

func (jsonCodec) Name() string { return "json" }

func (c jsonCodec) Marshal(v any) ([]byte, error) {
	f, ok := v.(*frame)
	if !ok {
		return nil, fmt.Errorf("invoke: codec cannot send %T", v)
	}
	return c.js.Decode(nil, c.in, f.b)
}

func (c jsonCodec) Unmarshal(data []byte, v any) error {
	f, ok := v.(*frame)
	if !ok {
		return fmt.Errorf("invoke: codec cannot receive into %T", v)
	}
	b, err := c.js.Encode(nil, c.out, data)
	if err != nil {
		return err
	}
	f.b = b
	return nil
}

func (c jsonCodec) MarshalStable(v any) ([]byte, error) { return c.Marshal(v) }
func (jsonCodec) IsBinary() bool                        { return false }
