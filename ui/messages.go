package ui

import (
	"google.golang.org/protobuf/reflect/protoreflect"
)

// The page's view of a message type, for the form: every field with its
// JSON name and kind, and the messages and enums they refer to, so one
// answer covers the whole (possibly recursive) type.
type messageSet struct {
	Root     string                  `json:"root"`
	Messages map[string]*messageView `json:"messages"`
	Enums    map[string][]enumValue  `json:"enums"`
}

type messageView struct {
	Name   string      `json:"name"`
	WKT    bool        `json:"wkt,omitempty"` // a well-known type with a JSON form of its own
	Fields []fieldView `json:"fields"`
}

type fieldView struct {
	Name     string   `json:"name"`
	JSON     string   `json:"json"`
	Number   int32    `json:"number"`
	Kind     string   `json:"kind"` // protobuf kind: string, int64, message, enum ...
	Type     string   `json:"type,omitempty"`
	Repeated bool     `json:"repeated,omitempty"`
	Optional bool     `json:"optional,omitempty"` // proto3 optional
	Oneof    string   `json:"oneof,omitempty"`
	Map      *mapView `json:"map,omitempty"`
}

type mapView struct {
	Key  string `json:"key"`  // the key's kind
	Kind string `json:"kind"` // the value's kind
	Type string `json:"type,omitempty"`
}

type enumValue struct {
	Name   string `json:"name"`
	Number int32  `json:"number"`
}

func describeMessages(md protoreflect.MessageDescriptor) *messageSet {
	s := &messageSet{Root: string(md.FullName()), Messages: map[string]*messageView{}, Enums: map[string][]enumValue{}}
	s.addMessage(md)
	return s
}

func isWKT(md protoreflect.MessageDescriptor) bool {
	_, ok := wktSamples[md.FullName()]
	return ok
}

// wktSamples lists the well-known types that have a JSON form of their own.
var wktSamples = map[protoreflect.FullName]bool{
	"google.protobuf.Timestamp": true, "google.protobuf.Duration": true, "google.protobuf.FieldMask": true,
	"google.protobuf.Struct": true, "google.protobuf.Value": true, "google.protobuf.ListValue": true,
	"google.protobuf.Empty": true, "google.protobuf.Any": true, "google.protobuf.DoubleValue": true,
	"google.protobuf.FloatValue": true, "google.protobuf.Int64Value": true, "google.protobuf.UInt64Value": true,
	"google.protobuf.Int32Value": true, "google.protobuf.UInt32Value": true, "google.protobuf.BoolValue": true,
	"google.protobuf.StringValue": true, "google.protobuf.BytesValue": true,
}

func (s *messageSet) addMessage(md protoreflect.MessageDescriptor) {
	name := string(md.FullName())
	if _, ok := s.Messages[name]; ok {
		return
	}
	mv := &messageView{Name: name, WKT: isWKT(md), Fields: []fieldView{}}
	s.Messages[name] = mv
	if mv.WKT {
		return
	}
	fields := md.Fields()
	for i := range fields.Len() {
		mv.Fields = append(mv.Fields, s.field(fields.Get(i)))
	}
}

func (s *messageSet) field(fd protoreflect.FieldDescriptor) fieldView {
	f := fieldView{
		Name: string(fd.Name()), JSON: fd.JSONName(), Number: int32(fd.Number()),
		Kind: fd.Kind().String(), Repeated: fd.IsList(), Optional: fd.HasOptionalKeyword(),
	}
	if od := fd.ContainingOneof(); od != nil && !od.IsSynthetic() {
		f.Oneof = string(od.Name())
	}
	if fd.IsMap() {
		v := fd.MapValue()
		f.Map = &mapView{Key: fd.MapKey().Kind().String(), Kind: v.Kind().String(), Type: s.typeOf(v)}
		f.Kind = "map"
		return f
	}
	f.Type = s.typeOf(fd)
	return f
}

// typeOf names (and collects) a field's message or enum type.
func (s *messageSet) typeOf(fd protoreflect.FieldDescriptor) string {
	switch {
	case fd.Message() != nil:
		s.addMessage(fd.Message())
		return string(fd.Message().FullName())
	case fd.Enum() != nil:
		ed := fd.Enum()
		name := string(ed.FullName())
		if _, ok := s.Enums[name]; !ok {
			vals := []enumValue{}
			for i := range ed.Values().Len() {
				v := ed.Values().Get(i)
				vals = append(vals, enumValue{Name: string(v.Name()), Number: int32(v.Number())})
			}
			s.Enums[name] = vals
		}
		return name
	}
	return ""
}
