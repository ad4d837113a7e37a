package schema

import (
	"bytes"
	"encoding/json"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// Template returns an indented JSON object for md with every field set to a
// sample value: zero scalars, the first enum value, one element in each
// repeated field and map, nested messages filled in (a message already
// being filled, through recursion, is left empty), and the well-known types
// in their JSON forms. Of each oneof, the first field is shown.
func Template(md protoreflect.MessageDescriptor) []byte {
	t := &templater{seen: map[protoreflect.FullName]bool{}}
	t.message(md)
	var out bytes.Buffer
	_ = json.Indent(&out, t.buf.Bytes(), "", "  ")
	return out.Bytes()
}

type templater struct {
	buf  bytes.Buffer
	seen map[protoreflect.FullName]bool
}

// wktSamples are the JSON forms of the well-known types that have one.
var wktSamples = map[protoreflect.FullName]string{
	"google.protobuf.Timestamp":   `"1970-01-01T00:00:00Z"`,
	"google.protobuf.Duration":    `"0s"`,
	"google.protobuf.FieldMask":   `""`,
	"google.protobuf.Struct":      `{}`,
	"google.protobuf.Value":       `null`,
	"google.protobuf.ListValue":   `[]`,
	"google.protobuf.Empty":       `{}`,
	"google.protobuf.Any":         `{"@type":"type.googleapis.com/google.protobuf.Empty"}`,
	"google.protobuf.DoubleValue": `0`,
	"google.protobuf.FloatValue":  `0`,
	"google.protobuf.Int64Value":  `"0"`,
	"google.protobuf.UInt64Value": `"0"`,
	"google.protobuf.Int32Value":  `0`,
	"google.protobuf.UInt32Value": `0`,
	"google.protobuf.BoolValue":   `false`,
	"google.protobuf.StringValue": `""`,
	"google.protobuf.BytesValue":  `""`,
}

func (t *templater) message(md protoreflect.MessageDescriptor) {
	if s, ok := wktSamples[md.FullName()]; ok {
		t.buf.WriteString(s)
		return
	}
	if t.seen[md.FullName()] {
		t.buf.WriteString("{}")
		return
	}
	t.seen[md.FullName()] = true
	defer delete(t.seen, md.FullName())
	t.buf.WriteByte('{')
	for i := range md.Fields().Len() {
		fd := md.Fields().Get(i)
		if od := fd.ContainingOneof(); od != nil && !od.IsSynthetic() && od.Fields().Get(0) != fd {
			continue
		}
		if t.buf.Bytes()[t.buf.Len()-1] != '{' {
			t.buf.WriteByte(',')
		}
		t.str(fd.JSONName())
		t.buf.WriteByte(':')
		t.field(fd)
	}
	t.buf.WriteByte('}')
}

func (t *templater) field(fd protoreflect.FieldDescriptor) {
	switch {
	case fd.IsMap():
		t.buf.WriteByte('{')
		t.str(mapKeySample(fd.MapKey()))
		t.buf.WriteByte(':')
		t.single(fd.MapValue())
		t.buf.WriteByte('}')
	case fd.IsList():
		t.buf.WriteByte('[')
		t.single(fd)
		t.buf.WriteByte(']')
	default:
		t.single(fd)
	}
}

func (t *templater) single(fd protoreflect.FieldDescriptor) {
	switch fd.Kind() {
	case protoreflect.MessageKind, protoreflect.GroupKind:
		t.message(fd.Message())
	case protoreflect.EnumKind:
		t.enum(fd.Enum())
	case protoreflect.StringKind, protoreflect.BytesKind:
		t.buf.WriteString(`""`)
	case protoreflect.BoolKind:
		t.buf.WriteString("false")
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind,
		protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		t.buf.WriteString(`"0"`)
	default:
		t.buf.WriteString("0")
	}
}

func (t *templater) enum(ed protoreflect.EnumDescriptor) {
	if ed.FullName() == "google.protobuf.NullValue" {
		t.buf.WriteString("null")
		return
	}
	t.str(string(ed.Values().Get(0).Name()))
}

func (t *templater) str(s string) {
	b, _ := json.Marshal(s)
	t.buf.Write(b)
}

func mapKeySample(fd protoreflect.FieldDescriptor) string {
	switch fd.Kind() {
	case protoreflect.StringKind:
		return "key"
	case protoreflect.BoolKind:
		return "false"
	}
	return "0"
}
