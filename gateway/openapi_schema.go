package gateway

import (
	"fmt"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// jsonSchema is one JSON Schema (2020-12, as OpenAPI 3.1 has it) in the
// shape encoding/json writes with sorted keys.
type jsonSchema = map[string]any

// statusSchemaName is the component of the errors every operation can
// answer with.
const statusSchemaName = "google.rpc.Status"

// schemas collects the component schemas of the messages and enums that
// the operations refer to, each once, by full name: references make
// recursive messages finite.
type schemas struct {
	components map[string]jsonSchema
}

func newSchemas() *schemas {
	s := &schemas{components: map[string]jsonSchema{}}
	s.components[statusSchemaName] = statusSchema()
	return s
}

// ref is a reference to the component schema named name.
func ref(name protoreflect.FullName) jsonSchema {
	return jsonSchema{"$ref": "#/components/schemas/" + string(name)}
}

// message is the schema of a message in canonical proto3 JSON: its
// well-known form, or a reference to its component.
func (s *schemas) message(md protoreflect.MessageDescriptor) jsonSchema {
	if wkt := wellKnownSchema(md); wkt != nil {
		return wkt
	}
	name := md.FullName()
	if _, ok := s.components[string(name)]; !ok {
		s.components[string(name)] = nil // taken, for recursion
		s.components[string(name)] = s.messageBody(md)
	}
	return ref(name)
}

// messageBody is a message's component: an object of its fields by JSON
// name, the source's comments as descriptions.
func (s *schemas) messageBody(md protoreflect.MessageDescriptor) jsonSchema {
	props := jsonSchema{}
	fields := md.Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		fs := s.field(fd)
		if d := comment(fd); d != "" {
			fs = withDescription(fs, d)
		}
		props[fd.JSONName()] = fs
	}
	out := jsonSchema{"type": "object", "properties": props, "additionalProperties": false}
	desc := comment(md)
	if oneofs := oneofNotes(md); oneofs != "" {
		desc = joinText(desc, oneofs)
	}
	if desc != "" {
		out["description"] = desc
	}
	return out
}

// oneofNotes says, for each real oneof of md, that at most one of its
// fields is set.
func oneofNotes(md protoreflect.MessageDescriptor) string {
	var notes []string
	oneofs := md.Oneofs()
	for i := range oneofs.Len() {
		od := oneofs.Get(i)
		if od.IsSynthetic() {
			continue
		}
		var names []string
		for j := range od.Fields().Len() {
			names = append(names, od.Fields().Get(j).JSONName())
		}
		notes = append(notes, fmt.Sprintf("At most one of %s (oneof %s).", strings.Join(names, ", "), od.Name()))
	}
	return strings.Join(notes, "\n")
}

// field is the schema of a field's JSON value: an array for a repeated
// field, an object for a map.
func (s *schemas) field(fd protoreflect.FieldDescriptor) jsonSchema {
	switch {
	case fd.IsMap():
		return jsonSchema{"type": "object", "additionalProperties": s.single(fd.MapValue())}
	case fd.IsList():
		return jsonSchema{"type": "array", "items": s.single(fd)}
	}
	return s.single(fd)
}

// single is the schema of one value of a field, repeated or not.
func (s *schemas) single(fd protoreflect.FieldDescriptor) jsonSchema {
	switch fd.Kind() {
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return s.message(fd.Message())
	case protoreflect.EnumKind:
		return s.enum(fd.Enum())
	}
	return scalarSchema(fd.Kind())
}

// enum is a reference to an enum's component: its value names (JSON null
// for google.protobuf.NullValue).
func (s *schemas) enum(ed protoreflect.EnumDescriptor) jsonSchema {
	if ed.FullName() == "google.protobuf.NullValue" {
		return jsonSchema{"type": "null"}
	}
	name := string(ed.FullName())
	if _, ok := s.components[name]; !ok {
		var names []string
		values := ed.Values()
		for i := range values.Len() {
			names = append(names, string(values.Get(i).Name()))
		}
		c := jsonSchema{"type": "string", "enum": names}
		if d := comment(ed); d != "" {
			c["description"] = d
		}
		s.components[name] = c
	}
	return ref(ed.FullName())
}

// int64Pattern and uint64Pattern are the decimal strings canonical JSON
// writes 64-bit integers as.
const (
	int64Pattern  = `^-?[0-9]+$`
	uint64Pattern = `^[0-9]+$`
)

// scalarSchema is the canonical JSON of a scalar kind: 64-bit integers as
// decimal strings, bytes as base64, floats as numbers or the strings
// "NaN", "Infinity" and "-Infinity".
func scalarSchema(k protoreflect.Kind) jsonSchema {
	switch k {
	case protoreflect.BoolKind:
		return jsonSchema{"type": "boolean"}
	case protoreflect.StringKind:
		return jsonSchema{"type": "string"}
	case protoreflect.BytesKind:
		return jsonSchema{"type": "string", "format": "byte", "contentEncoding": "base64"}
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return jsonSchema{"type": "integer", "format": "int32"}
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return jsonSchema{"type": "integer", "format": "int64", "minimum": 0, "maximum": uint64(1<<32 - 1)}
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return jsonSchema{"type": "string", "format": "int64", "pattern": int64Pattern}
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return jsonSchema{"type": "string", "format": "int64", "pattern": uint64Pattern}
	case protoreflect.FloatKind:
		return floatSchema("float")
	}
	return floatSchema("double")
}

func floatSchema(format string) jsonSchema {
	return jsonSchema{"oneOf": []any{
		jsonSchema{"type": "number", "format": format},
		jsonSchema{"type": "string", "enum": []string{"NaN", "Infinity", "-Infinity"}},
	}}
}

// wellKnownSchema is the JSON form of a well-known type, nil for other
// messages.
func wellKnownSchema(md protoreflect.MessageDescriptor) jsonSchema {
	if md.ParentFile() == nil || md.ParentFile().Package() != "google.protobuf" {
		return nil
	}
	switch md.Name() {
	case "Timestamp":
		return jsonSchema{"type": "string", "format": "date-time"}
	case "Duration":
		return jsonSchema{"type": "string", "pattern": `^-?[0-9]+(\.[0-9]{1,9})?s$`, "description": "A duration in seconds with an s suffix, as \"1.5s\"."}
	case "FieldMask":
		return jsonSchema{"type": "string", "description": "Field paths in lowerCamelCase, comma-separated."}
	case "Struct":
		return jsonSchema{"type": "object", "additionalProperties": true}
	case "Value":
		return jsonSchema{}
	case "ListValue":
		return jsonSchema{"type": "array"}
	case "Empty":
		return jsonSchema{"type": "object", "additionalProperties": false}
	case "Any":
		return anySchema()
	}
	return wrapperSchema(md)
}

// wrapperSchema is a wrapper type's JSON form: its scalar, or null.
func wrapperSchema(md protoreflect.MessageDescriptor) jsonSchema {
	if !strings.HasSuffix(string(md.Name()), "Value") || md.Fields().Len() != 1 {
		return nil
	}
	inner := scalarSchema(md.Fields().Get(0).Kind())
	if t, ok := inner["type"].(string); ok {
		inner["type"] = []string{t, "null"}
		return inner
	}
	return jsonSchema{"oneOf": append(inner["oneOf"].([]any), jsonSchema{"type": "null"})}
}

// anySchema is google.protobuf.Any's JSON: the message's fields (or
// "value" for a well-known type) beside "@type".
func anySchema() jsonSchema {
	return jsonSchema{
		"type":                 "object",
		"properties":           jsonSchema{"@type": jsonSchema{"type": "string", "description": "The type URL of the message, as type.googleapis.com/pkg.Msg."}},
		"required":             []string{"@type"},
		"additionalProperties": true,
	}
}

// statusSchema is google.rpc.Status, the body of every error.
func statusSchema() jsonSchema {
	return jsonSchema{
		"type":        "object",
		"description": "The error: a gRPC status code, a message for developers, and details.",
		"properties": jsonSchema{
			"code":    jsonSchema{"type": "integer", "format": "int32", "description": "The gRPC status code (google.rpc.Code)."},
			"message": jsonSchema{"type": "string"},
			"details": jsonSchema{"type": "array", "items": anySchema()},
		},
		"additionalProperties": false,
	}
}

// withDescription adds a description to a schema; a reference gets it
// beside the $ref, as JSON Schema 2020-12 allows.
func withDescription(s jsonSchema, d string) jsonSchema {
	out := make(jsonSchema, len(s)+1)
	for k, v := range s {
		out[k] = v
	}
	out["description"] = joinText(stringOf(s["description"]), d)
	return out
}

func stringOf(v any) string {
	s, _ := v.(string)
	return s
}

// joinText joins two paragraphs, either of which may be empty.
func joinText(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n\n" + b
}

// comment is the leading comment of d in its .proto source, trimmed;
// empty when the descriptors came without source info (reflection).
func comment(d protoreflect.Descriptor) string {
	f := d.ParentFile()
	if f == nil {
		return ""
	}
	loc := f.SourceLocations().ByDescriptor(d)
	lines := strings.Split(strings.TrimSpace(loc.LeadingComments), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}
