package dynamic

import (
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Field is one field of a Type, with everything a decoder or an encoder of
// the field needs.
type Field struct {
	Desc     protoreflect.FieldDescriptor
	Num      protowire.Number
	Name     string // proto name
	JSONName string
	Kind     protoreflect.Kind
	// WireType is the wire type of one element: varint, fixed32, fixed64,
	// bytes (strings, bytes, messages, map entries) or start-group.
	WireType protowire.Type
	List     bool // repeated, not a map
	Map      bool
	// Packed reports whether the field is encoded packed; a repeated
	// scalar is decoded both ways whatever it says.
	Packed bool
	// Packable reports whether the field is a repeated scalar, which may
	// arrive as packed runs.
	Packable bool
	// Oneof is the index of the field's real oneof in Type.Oneofs, or -1.
	Oneof int
	// HasPresence reports whether the field tracks presence (proto2
	// optional, proto3 optional, messages, oneof members).
	HasPresence bool
	// Required reports whether the field is a proto2 required field.
	Required bool
	// UTF8 reports whether string values must be valid UTF-8.
	UTF8 bool
	Enum *Enum
	// Message is the Type of a message or group field, or the entry Type of
	// a map field.
	Message *Type
	// MapKey and MapValue are the entry fields of a map field.
	MapKey, MapValue *Field
	// Default is the value of an absent singular field: the proto2 default
	// or the zero value.
	Default protoreflect.Value
}

// accepts reports whether a record of wire type wt is a value of f, as
// protobuf-go decodes it; records that are not are unknown fields.
func (f *Field) accepts(wt protowire.Type) bool {
	return wt == f.WireType || (f.Packable && wt == protowire.BytesType)
}

// isMessage reports whether f holds messages or groups.
func (f *Field) isMessage() bool {
	return f.Kind == protoreflect.MessageKind || f.Kind == protoreflect.GroupKind
}

// Enum is an enum compiled for lookups both ways.
type Enum struct {
	Desc   protoreflect.EnumDescriptor
	Closed bool
	dense  []string // by number, for 0 <= number < len(dense)
	byNum  map[protoreflect.EnumNumber]string
	byName map[string]protoreflect.EnumNumber
}

// Name returns the name of the value numbered n.
func (e *Enum) Name(n protoreflect.EnumNumber) (string, bool) {
	if n >= 0 && int(n) < len(e.dense) && e.dense[n] != "" {
		return e.dense[n], true
	}
	s, ok := e.byNum[n]
	return s, ok
}

// Number returns the number of the value named name.
func (e *Enum) Number(name string) (protoreflect.EnumNumber, bool) {
	n, ok := e.byName[name]
	return n, ok
}

// WireTypeOf returns the wire type of one element of a field of kind k
// (packed repeated fields aside, which are BytesType records).
func WireTypeOf(k protoreflect.Kind) protowire.Type {
	switch k {
	case protoreflect.Fixed32Kind, protoreflect.Sfixed32Kind, protoreflect.FloatKind:
		return protowire.Fixed32Type
	case protoreflect.Fixed64Kind, protoreflect.Sfixed64Kind, protoreflect.DoubleKind:
		return protowire.Fixed64Type
	case protoreflect.StringKind, protoreflect.BytesKind, protoreflect.MessageKind:
		return protowire.BytesType
	case protoreflect.GroupKind:
		return protowire.StartGroupType
	}
	return protowire.VarintType
}
