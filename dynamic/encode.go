package dynamic

import (
	"math"
	"unicode/utf8"

	"github.com/rpckit/rpckit/internal/pathsyntax"
	"github.com/rpckit/rpckit/wire"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// appendRecord appends a whole record of field f holding val: a scalar of
// f's kind, or for a message field a proto.Message or its encoding as
// bytes.
func appendRecord(dst []byte, f *Field, val protoreflect.Value) ([]byte, error) {
	switch {
	case f.Kind == protoreflect.GroupKind:
		dst = protowire.AppendTag(dst, f.Num, protowire.StartGroupType)
		dst, err := appendMessage(dst, val)
		return protowire.AppendTag(dst, f.Num, protowire.EndGroupType), err
	case f.Kind == protoreflect.MessageKind:
		dst = protowire.AppendTag(dst, f.Num, protowire.BytesType)
		lenAt, dst := len(dst), append(dst, 0)
		dst, err := appendMessage(dst, val)
		return endLen(dst, lenAt, 1), err
	}
	dst = protowire.AppendTag(dst, f.Num, f.WireType)
	return appendScalar(dst, f, val)
}

func appendMessage(dst []byte, val protoreflect.Value) ([]byte, error) {
	switch x := val.Interface().(type) {
	case []byte:
		return append(dst, x...), nil
	case protoreflect.Message:
		return proto.MarshalOptions{}.MarshalAppend(dst, x.Interface())
	}
	return dst, errValue
}

// errValue reports a value that does not fit its field.
var errValue = &PathError{Msg: "value does not fit the field"}

// appendScalar appends the value of a scalar of f, without tag.
func appendScalar(dst []byte, f *Field, val protoreflect.Value) (out []byte, err error) {
	defer func() {
		if recover() != nil {
			out, err = dst, errValue
		}
	}()
	switch f.Kind {
	case protoreflect.BoolKind:
		return protowire.AppendVarint(dst, protowire.EncodeBool(val.Bool())), nil
	case protoreflect.EnumKind:
		return protowire.AppendVarint(dst, uint64(val.Enum())), nil
	case protoreflect.Int32Kind, protoreflect.Int64Kind:
		return protowire.AppendVarint(dst, uint64(val.Int())), nil
	case protoreflect.Uint32Kind, protoreflect.Uint64Kind:
		return protowire.AppendVarint(dst, val.Uint()), nil
	case protoreflect.Sint32Kind, protoreflect.Sint64Kind:
		return protowire.AppendVarint(dst, protowire.EncodeZigZag(val.Int())), nil
	case protoreflect.Sfixed32Kind:
		return protowire.AppendFixed32(dst, uint32(val.Int())), nil
	case protoreflect.Fixed32Kind:
		return protowire.AppendFixed32(dst, uint32(val.Uint())), nil
	case protoreflect.FloatKind:
		return protowire.AppendFixed32(dst, math.Float32bits(float32(val.Float()))), nil
	case protoreflect.Sfixed64Kind:
		return protowire.AppendFixed64(dst, uint64(val.Int())), nil
	case protoreflect.Fixed64Kind:
		return protowire.AppendFixed64(dst, val.Uint()), nil
	case protoreflect.DoubleKind:
		return protowire.AppendFixed64(dst, math.Float64bits(val.Float())), nil
	case protoreflect.StringKind:
		return appendString(dst, f, val.String())
	case protoreflect.BytesKind:
		return protowire.AppendBytes(dst, val.Bytes()), nil
	}
	return dst, errValue
}

func appendString(dst []byte, f *Field, s string) ([]byte, error) {
	if f.UTF8 && !utf8.ValidString(s) {
		return dst, &Error{Code: wire.CodeUTF8, Path: f.Name}
	}
	return protowire.AppendString(dst, s), nil
}

// appendKey appends the key record of a map entry.
func appendKey(dst []byte, kf *Field, k Key) ([]byte, error) {
	var v protoreflect.Value
	switch k.Kind {
	case pathsyntax.String:
		v = protoreflect.ValueOfString(k.Str)
	case pathsyntax.Bool:
		v = protoreflect.ValueOfBool(k.Uint == 1)
	case pathsyntax.Int:
		v = protoreflect.ValueOfInt64(k.Int)
		if isUnsigned(kf.Kind) {
			v = protoreflect.ValueOfUint64(uint64(k.Int))
		}
	case pathsyntax.Uint:
		v = protoreflect.ValueOfUint64(k.Uint)
		if !isUnsigned(kf.Kind) {
			v = protoreflect.ValueOfInt64(int64(k.Uint))
		}
	}
	return appendRecord(dst, kf, v)
}

func isUnsigned(k protoreflect.Kind) bool {
	switch k {
	case protoreflect.Uint32Kind, protoreflect.Uint64Kind, protoreflect.Fixed32Kind, protoreflect.Fixed64Kind:
		return true
	}
	return false
}

// endLen writes the length of the payload that follows a reserved prefix of
// reserved bytes at lenAt, moving the payload if the prefix needs another
// size.
func endLen(dst []byte, lenAt, reserved int) []byte {
	n := len(dst) - lenAt - reserved
	size := protowire.SizeVarint(uint64(n))
	if size > reserved {
		var pad [10]byte
		dst = append(dst, pad[:size-reserved]...)
		copy(dst[lenAt+size:], dst[lenAt+reserved:lenAt+reserved+n])
	} else if size < reserved {
		copy(dst[lenAt+size:], dst[lenAt+reserved:])
		dst = dst[:lenAt+size+n]
	}
	protowire.AppendVarint(dst[lenAt:lenAt], uint64(n))
	return dst
}
