package schema

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"
)

// optionWidth is the column past which an option's value is broken over
// lines, one field or element to a line.
const optionWidth = 80

// option is one option set on a descriptor: its name as .proto writes it
// (deprecated, (google.api.http)) and its value as text.
type option struct {
	name string
	fd   protoreflect.FieldDescriptor
	v    protoreflect.Value
}

// optionsOf lists the options set on d, standard and custom, in field
// number order. Custom options are read with the extensions that d's file
// and its imports declare, so they print whether or not this binary links
// their generated code; ones declared nowhere in reach are left out.
func optionsOf(d protoreflect.Descriptor) []option {
	m := resolvedOptions(d)
	if m == nil {
		return nil
	}
	var out []option
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		if fd.Number() == 999 || fd.Name() == "map_entry" && !fd.IsExtension() {
			return true // uninterpreted_option; map_entry is the map<K, V> syntax itself
		}
		out = append(out, option{name: fieldName(fd, true), fd: fd, v: v})
		return true
	})
	slices.SortFunc(out, func(a, b option) int { return cmp.Compare(a.fd.Number(), b.fd.Number()) })
	return out
}

// resolvedOptions is d's options message read again with the extensions
// in reach of d's file, or nil when no option is set.
func resolvedOptions(d protoreflect.Descriptor) protoreflect.Message {
	opts := d.Options()
	if opts == nil || !opts.ProtoReflect().IsValid() {
		return nil
	}
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(opts)
	if err != nil || len(b) == 0 {
		return nil
	}
	m := opts.ProtoReflect().Type().New()
	types := extensionsOf(d.ParentFile(), m.Descriptor().FullName())
	if err := (proto.UnmarshalOptions{Resolver: types}).Unmarshal(b, m.Interface()); err != nil {
		return nil
	}
	return m
}

// extensionsOf collects the extensions of the message named extendee that
// file and its imports, transitively, declare.
func extensionsOf(file protoreflect.FileDescriptor, extendee protoreflect.FullName) *protoregistry.Types {
	types := &protoregistry.Types{}
	seen := map[string]bool{}
	var walk func(f protoreflect.FileDescriptor)
	walk = func(f protoreflect.FileDescriptor) {
		if f == nil || seen[f.Path()] {
			return
		}
		seen[f.Path()] = true
		addExtensions(types, f.Extensions(), extendee)
		addNestedExtensions(types, f.Messages(), extendee)
		for i := range f.Imports().Len() {
			walk(f.Imports().Get(i).FileDescriptor)
		}
	}
	walk(file)
	return types
}

func addNestedExtensions(types *protoregistry.Types, msgs protoreflect.MessageDescriptors, extendee protoreflect.FullName) {
	for i := range msgs.Len() {
		addExtensions(types, msgs.Get(i).Extensions(), extendee)
		addNestedExtensions(types, msgs.Get(i).Messages(), extendee)
	}
}

func addExtensions(types *protoregistry.Types, xds protoreflect.ExtensionDescriptors, extendee protoreflect.FullName) {
	for i := range xds.Len() {
		if xd := xds.Get(i); xd.ContainingMessage().FullName() == extendee {
			_ = types.RegisterExtension(dynamicpb.NewExtensionType(xd)) // a name seen twice: the first one
		}
	}
}

// fieldName is a field's name in text format: (full.name) for an
// extension in an option statement, [full.name] inside a message value.
func fieldName(fd protoreflect.FieldDescriptor, statement bool) string {
	switch {
	case fd.IsExtension() && statement:
		return "(" + string(fd.FullName()) + ")"
	case fd.IsExtension():
		return "[" + string(fd.FullName()) + "]"
	case fd.Kind() == protoreflect.GroupKind:
		return string(fd.Message().Name())
	}
	return string(fd.Name())
}

// optionStatements writes d's options as option statements.
func (p *printer) optionStatements(opts []option, indent string) {
	for _, o := range opts {
		prefix := indent + "option " + o.name + " = "
		p.line("", "%s%s;", prefix, formatValue(o.fd, o.v, indent, len(prefix)+1))
	}
}

// inlineOptions is the [name = value, ...] of a field or enum value, with
// a space before it, or "" when it has none.
func inlineOptions(d protoreflect.Descriptor) string {
	opts := optionsOf(d)
	if len(opts) == 0 {
		return ""
	}
	parts := make([]string, len(opts))
	for i, o := range opts {
		parts[i] = o.name + " = " + oneLine(o.fd, o.v)
	}
	return " [" + strings.Join(parts, ", ") + "]"
}

// formatValue renders a field's value starting at column col: on one line
// when it fits, else a field or element to a line under indent.
func formatValue(fd protoreflect.FieldDescriptor, v protoreflect.Value, indent string, col int) string {
	one := oneLine(fd, v)
	if col+len(one) <= optionWidth || !(fd.IsList() || fd.IsMap() || fd.Message() != nil) {
		return one
	}
	inner := indent + "  "
	var items []string
	switch {
	case fd.IsList():
		l := v.List()
		for i := range l.Len() {
			items = append(items, inner+formatElem(fd, l.Get(i), inner, len(inner)+1))
		}
		return "[\n" + strings.Join(items, ",\n") + "\n" + indent + "]"
	case fd.IsMap():
		for _, e := range mapEntries(fd, v.Map()) {
			items = append(items, inner+e)
		}
		return "[\n" + strings.Join(items, ",\n") + "\n" + indent + "]"
	}
	return formatMessage(v.Message(), indent)
}

// formatElem renders one element of a list (or a singular value).
func formatElem(fd protoreflect.FieldDescriptor, v protoreflect.Value, indent string, col int) string {
	one := elemText(fd, v)
	if fd.Message() == nil || col+len(one) <= optionWidth {
		return one
	}
	return formatMessage(v.Message(), indent)
}

// formatMessage renders a message a field to a line.
func formatMessage(m protoreflect.Message, indent string) string {
	inner := indent + "  "
	var lines []string
	for _, f := range setFields(m) {
		prefix := inner + fieldName(f.fd, false) + ": "
		lines = append(lines, prefix+formatValue(f.fd, f.v, inner, len(prefix)+1))
	}
	return "{\n" + strings.Join(lines, ",\n") + "\n" + indent + "}"
}

// oneLine renders a field's value on one line.
func oneLine(fd protoreflect.FieldDescriptor, v protoreflect.Value) string {
	switch {
	case fd.IsList():
		l := v.List()
		items := make([]string, l.Len())
		for i := range l.Len() {
			items[i] = elemText(fd, l.Get(i))
		}
		return "[" + strings.Join(items, ", ") + "]"
	case fd.IsMap():
		return "[" + strings.Join(mapEntries(fd, v.Map()), ", ") + "]"
	}
	return elemText(fd, v)
}

// elemText renders a singular value on one line.
func elemText(fd protoreflect.FieldDescriptor, v protoreflect.Value) string {
	if fd.Message() == nil {
		return scalarText(fd, v)
	}
	fields := setFields(v.Message())
	if len(fields) == 0 {
		return "{}"
	}
	parts := make([]string, len(fields))
	for i, f := range fields {
		parts[i] = fieldName(f.fd, false) + ": " + oneLine(f.fd, f.v)
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}

// mapEntries renders a map's entries, by key, as { key: K, value: V }.
func mapEntries(fd protoreflect.FieldDescriptor, m protoreflect.Map) []string {
	var out []string
	m.Range(func(k protoreflect.MapKey, v protoreflect.Value) bool {
		out = append(out, "{ key: "+scalarText(fd.MapKey(), k.Value())+", value: "+elemText(fd.MapValue(), v)+" }")
		return true
	})
	slices.Sort(out)
	return out
}

type setField struct {
	fd protoreflect.FieldDescriptor
	v  protoreflect.Value
}

// setFields lists the fields set in m in number order.
func setFields(m protoreflect.Message) []setField {
	var out []setField
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		out = append(out, setField{fd, v})
		return true
	})
	slices.SortFunc(out, func(a, b setField) int { return cmp.Compare(a.fd.Number(), b.fd.Number()) })
	return out
}

// scalarText renders a scalar as text format writes it.
func scalarText(fd protoreflect.FieldDescriptor, v protoreflect.Value) string {
	switch fd.Kind() {
	case protoreflect.StringKind:
		return quote([]byte(v.String()), false)
	case protoreflect.BytesKind:
		return quote(v.Bytes(), true)
	case protoreflect.EnumKind:
		if ev := fd.Enum().Values().ByNumber(v.Enum()); ev != nil {
			return string(ev.Name())
		}
		return strconv.Itoa(int(v.Enum()))
	case protoreflect.FloatKind, protoreflect.DoubleKind:
		return floatText(v.Float())
	}
	return fmt.Sprint(v.Interface())
}

func floatText(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// quote writes a string or bytes literal: printable ASCII (and, in a
// string, UTF-8) as it is, the rest as C escapes.
func quote(b []byte, bytes bool) string {
	var s strings.Builder
	s.WriteByte('"')
	for _, c := range b {
		switch {
		case c == '"' || c == '\\':
			s.WriteByte('\\')
			s.WriteByte(c)
		case c == '\n':
			s.WriteString(`\n`)
		case c == '\r':
			s.WriteString(`\r`)
		case c == '\t':
			s.WriteString(`\t`)
		case c < 0x20 || c == 0x7f || bytes && c >= 0x80:
			fmt.Fprintf(&s, `\%03o`, c)
		default:
			s.WriteByte(c)
		}
	}
	s.WriteByte('"')
	return s.String()
}
