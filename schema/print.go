package schema

import (
	"fmt"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// Print renders a service, method, message, oneof, enum, enum value or
// field as .proto source, with its options and, when the descriptor has
// them, its leading comments.
func Print(d protoreflect.Descriptor) string {
	p := &printer{}
	p.comment(d, "")
	switch d := d.(type) {
	case protoreflect.ServiceDescriptor:
		p.service(d)
	case protoreflect.MethodDescriptor:
		p.method(d, "")
	case protoreflect.MessageDescriptor:
		p.message(d, "")
	case protoreflect.EnumDescriptor:
		p.enum(d, "")
	case protoreflect.EnumValueDescriptor:
		p.enumValue(d, "")
	case protoreflect.FieldDescriptor:
		p.field(d, "")
	case protoreflect.OneofDescriptor:
		p.oneof(d, "")
	default:
		p.line("", "// %s", d.FullName())
	}
	return p.String()
}

// Kind names what a descriptor is: "service", "method", "message",
// "oneof", "enum", "enum value", "field", "extension" or "file".
func Kind(d protoreflect.Descriptor) string {
	switch d := d.(type) {
	case protoreflect.ServiceDescriptor:
		return "service"
	case protoreflect.MethodDescriptor:
		return "method"
	case protoreflect.MessageDescriptor:
		return "message"
	case protoreflect.EnumDescriptor:
		return "enum"
	case protoreflect.EnumValueDescriptor:
		return "enum value"
	case protoreflect.FieldDescriptor:
		if d.IsExtension() {
			return "extension"
		}
		return "field"
	case protoreflect.FileDescriptor:
		return "file"
	case protoreflect.OneofDescriptor:
		return "oneof"
	}
	return "symbol"
}

type printer struct{ strings.Builder }

func (p *printer) line(indent, format string, args ...any) {
	p.WriteString(indent)
	fmt.Fprintf(p, format, args...)
	p.WriteByte('\n')
}

func (p *printer) comment(d protoreflect.Descriptor, indent string) {
	loc := d.ParentFile().SourceLocations().ByDescriptor(d)
	text := strings.TrimSuffix(loc.LeadingComments, "\n")
	if text == "" {
		return
	}
	for _, l := range strings.Split(text, "\n") {
		p.line(indent, "//%s", l)
	}
}

func (p *printer) service(sd protoreflect.ServiceDescriptor) {
	p.line("", "service %s {", sd.Name())
	p.optionStatements(optionsOf(sd), "  ")
	for i := range sd.Methods().Len() {
		md := sd.Methods().Get(i)
		p.comment(md, "  ")
		p.method(md, "  ")
	}
	p.line("", "}")
}

func (p *printer) method(md protoreflect.MethodDescriptor, indent string) {
	sig := fmt.Sprintf("rpc %s(%s%s) returns (%s%s)", md.Name(),
		streamWord(md.IsStreamingClient()), md.Input().FullName(),
		streamWord(md.IsStreamingServer()), md.Output().FullName())
	opts := optionsOf(md)
	if len(opts) == 0 {
		p.line(indent, "%s;", sig)
		return
	}
	p.line(indent, "%s {", sig)
	p.optionStatements(opts, indent+"  ")
	p.line(indent, "}")
}

func streamWord(streaming bool) string {
	if streaming {
		return "stream "
	}
	return ""
}

func (p *printer) message(md protoreflect.MessageDescriptor, indent string) {
	p.line(indent, "message %s {", md.Name())
	inner := indent + "  "
	p.optionStatements(optionsOf(md), inner)
	p.nested(md, inner)
	done := map[protoreflect.OneofDescriptor]bool{}
	for i := range md.Fields().Len() {
		fd := md.Fields().Get(i)
		if od := fd.ContainingOneof(); od != nil && !od.IsSynthetic() {
			if !done[od] {
				done[od] = true
				p.oneof(od, inner)
			}
			continue
		}
		p.comment(fd, inner)
		p.field(fd, inner)
	}
	p.line(indent, "}")
}

func (p *printer) nested(md protoreflect.MessageDescriptor, indent string) {
	for i := range md.Enums().Len() {
		p.enum(md.Enums().Get(i), indent)
	}
	for i := range md.Messages().Len() {
		if nm := md.Messages().Get(i); !nm.IsMapEntry() {
			p.message(nm, indent)
		}
	}
}

func (p *printer) oneof(od protoreflect.OneofDescriptor, indent string) {
	p.line(indent, "oneof %s {", od.Name())
	p.optionStatements(optionsOf(od), indent+"  ")
	for i := range od.Fields().Len() {
		p.field(od.Fields().Get(i), indent+"  ")
	}
	p.line(indent, "}")
}

func (p *printer) field(fd protoreflect.FieldDescriptor, indent string) {
	p.line(indent, "%s%s %s = %d%s;", label(fd), typeName(fd), fd.Name(), fd.Number(), inlineOptions(fd))
}

func label(fd protoreflect.FieldDescriptor) string {
	switch {
	case fd.IsMap() || fd.ContainingOneof() != nil && !fd.ContainingOneof().IsSynthetic():
		return ""
	case fd.IsList():
		return "repeated "
	case fd.Cardinality() == protoreflect.Required:
		return "required "
	case fd.ParentFile().Syntax() == protoreflect.Proto2,
		fd.HasPresence() && fd.Message() == nil && fd.ParentFile().Syntax() == protoreflect.Proto3:
		return "optional "
	}
	return ""
}

func typeName(fd protoreflect.FieldDescriptor) string {
	switch {
	case fd.IsMap():
		return fmt.Sprintf("map<%s, %s>", typeName(fd.MapKey()), typeName(fd.MapValue()))
	case fd.Message() != nil:
		return string(fd.Message().FullName())
	case fd.Enum() != nil:
		return string(fd.Enum().FullName())
	}
	return fd.Kind().String()
}

func (p *printer) enum(ed protoreflect.EnumDescriptor, indent string) {
	p.line(indent, "enum %s {", ed.Name())
	p.optionStatements(optionsOf(ed), indent+"  ")
	for i := range ed.Values().Len() {
		v := ed.Values().Get(i)
		p.comment(v, indent+"  ")
		p.enumValue(v, indent+"  ")
	}
	p.line(indent, "}")
}

func (p *printer) enumValue(v protoreflect.EnumValueDescriptor, indent string) {
	p.line(indent, "%s = %d%s;", v.Name(), v.Number(), inlineOptions(v))
}
