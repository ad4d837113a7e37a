package dynamic

import (
	"math"
	"unsafe"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// elemKind says what an Elem holds.
type elemKind uint8

const (
	elemScalar elemKind = iota + 1
	elemMessage
	elemList
	elemMap
)

// Elem is what Get finds: a scalar, a message, a list or a map. Strings
// and bytes are views of the message's bytes, valid while they are.
type Elem struct {
	f      *Field
	kind   elemKind
	exists bool
	bits   uint64 // numeric scalars
	raw    []byte // strings and bytes
	msg    Value  // messages; the enclosing message of lists and maps
}

// Field returns the field the element belongs to; nil for the root.
func (e Elem) Field() *Field { return e.f }

// Exists reports whether the element is present on the wire. An absent
// element reads as its field's default.
func (e Elem) Exists() bool { return e.exists }

// IsMessage, IsList and IsMap say what the element holds.
func (e Elem) IsMessage() bool { return e.kind == elemMessage }

// IsList reports whether the element is a whole repeated field.
func (e Elem) IsList() bool { return e.kind == elemList }

// IsMap reports whether the element is a whole map field.
func (e Elem) IsMap() bool { return e.kind == elemMap }

func (e Elem) scalarKind() protoreflect.Kind {
	if e.kind != elemScalar || e.f == nil {
		return 0
	}
	return e.f.Kind
}

// Int returns a signed integer or enum scalar.
func (e Elem) Int() int64 {
	if !e.exists {
		return defaultInt(e.f)
	}
	return decodeInt(e.scalarKind(), e.bits)
}

// Uint returns an unsigned integer scalar.
func (e Elem) Uint() uint64 {
	if !e.exists {
		return defaultUint(e.f)
	}
	return decodeUint(e.scalarKind(), e.bits)
}

// Float returns a float or double scalar.
func (e Elem) Float() float64 {
	if !e.exists {
		return defaultFloat(e.f)
	}
	if e.scalarKind() == protoreflect.FloatKind {
		return float64(math.Float32frombits(uint32(e.bits)))
	}
	return math.Float64frombits(e.bits)
}

// Bool returns a bool scalar.
func (e Elem) Bool() bool {
	if !e.exists {
		return e.f != nil && e.f.Default.IsValid() && e.f.Default.Bool()
	}
	return e.bits != 0
}

// Enum returns an enum scalar's number.
func (e Elem) Enum() protoreflect.EnumNumber { return protoreflect.EnumNumber(e.Int()) }

// String returns a string scalar without copying: the string shares the
// message's bytes, which must not change while it is in use.
func (e Elem) String() string {
	if !e.exists {
		if e.f != nil && e.f.Kind == protoreflect.StringKind && e.f.Default.IsValid() {
			return e.f.Default.String()
		}
		return ""
	}
	b := e.raw
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// Bytes returns a string or bytes scalar as a view of the message's bytes.
func (e Elem) Bytes() []byte {
	if !e.exists {
		if e.f != nil && e.f.Kind == protoreflect.BytesKind && e.f.Default.IsValid() {
			return e.f.Default.Bytes()
		}
		if e.f != nil && e.f.Kind == protoreflect.StringKind && e.f.Default.IsValid() {
			return []byte(e.f.Default.String())
		}
		return nil
	}
	return e.raw
}

// Message returns a message element; absent messages are empty.
func (e Elem) Message() Value {
	return e.msg
}

// List returns a list element.
func (e Elem) List() List { return List{f: e.f, v: e.msg} }

// Map returns a map element.
func (e Elem) Map() Map { return Map{f: e.f, v: e.msg} }

// ProtoValue returns a scalar as a protoreflect.Value (strings copied).
func (e Elem) ProtoValue() protoreflect.Value {
	switch e.scalarKind() {
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(e.Bool())
	case protoreflect.EnumKind:
		return protoreflect.ValueOfEnum(e.Enum())
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return protoreflect.ValueOfInt32(int32(e.Int()))
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return protoreflect.ValueOfInt64(e.Int())
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return protoreflect.ValueOfUint32(uint32(e.Uint()))
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return protoreflect.ValueOfUint64(e.Uint())
	case protoreflect.FloatKind:
		return protoreflect.ValueOfFloat32(float32(e.Float()))
	case protoreflect.DoubleKind:
		return protoreflect.ValueOfFloat64(e.Float())
	case protoreflect.StringKind:
		return protoreflect.ValueOfString(string(e.Bytes()))
	case protoreflect.BytesKind:
		return protoreflect.ValueOfBytes(append([]byte{}, e.Bytes()...))
	}
	return protoreflect.Value{}
}

// decodeInt decodes the bits of a signed scalar of kind k.
func decodeInt(k protoreflect.Kind, bits uint64) int64 {
	switch k {
	case protoreflect.Int32Kind, protoreflect.EnumKind:
		return int64(int32(bits))
	case protoreflect.Sint32Kind:
		return int64(int32(protowire.DecodeZigZag(bits & math.MaxUint32)))
	case protoreflect.Sint64Kind:
		return protowire.DecodeZigZag(bits)
	case protoreflect.Sfixed32Kind:
		return int64(int32(uint32(bits)))
	}
	return int64(bits)
}

// decodeUint decodes the bits of an unsigned scalar of kind k.
func decodeUint(k protoreflect.Kind, bits uint64) uint64 {
	switch k {
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return uint64(uint32(bits))
	}
	return bits
}

func defaultInt(f *Field) int64 {
	if f == nil || !f.Default.IsValid() {
		return 0
	}
	if f.Kind == protoreflect.EnumKind {
		return int64(f.Default.Enum())
	}
	return f.Default.Int()
}

func defaultUint(f *Field) uint64 {
	if f == nil || !f.Default.IsValid() {
		return 0
	}
	return f.Default.Uint()
}

func defaultFloat(f *Field) float64 {
	if f == nil || !f.Default.IsValid() {
		return 0
	}
	return f.Default.Float()
}
