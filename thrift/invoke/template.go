package invoke

import (
	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/idl"
	"github.com/rpckit/rpckit/thrift/transcode"
	"github.com/rpckit/rpckit/thrift/wire"
)

// Template is sample JSON of the struct, union or exception s, compact:
// every field with a sample value (a union its first member), containers
// with one element, enums by their first name. A field whose type would
// nest a struct already open is left out, unless required.
func Template(s *idl.Struct) ([]byte, error) {
	var cache dynamic.Cache
	t := cache.Type(StructType(s))
	b := sampleStruct(nil, t, map[*dynamic.Type]bool{})
	return transcode.MarshalOptions{EnumNames: true}.Marshal(t, b)
}

// ArgsTemplate is the Template of fn's arguments struct: the JSON a call
// of fn takes.
func ArgsTemplate(fn *idl.Function) ([]byte, error) { return Template(fn.Args) }

// sampleStruct appends a sample of the struct t in the binary protocol.
// A field whose type would nest t again is left out, unless required.
func sampleStruct(b []byte, t *dynamic.Type, open map[*dynamic.Type]bool) []byte {
	open[t] = true
	defer delete(open, t)
	p := wire.Binary
	for _, f := range t.Fields {
		if f.Required != idl.Required && reaches(f.Type, open) {
			continue
		}
		b = p.AppendFieldHeader(b, f.Type.Wire, f.ID, 0)
		b = sampleValue(b, f.Type, open)
		if t.Kind == idl.UnionKind {
			break
		}
	}
	return p.AppendStop(b)
}

// reaches reports whether a value of t holds a struct that is open.
func reaches(t *dynamic.Type, open map[*dynamic.Type]bool) bool {
	switch {
	case t.IsStruct():
		return open[t]
	case t.Kind == idl.MapKind:
		return reaches(t.Key, open) || reaches(t.Elem, open)
	case t.Kind == idl.ListKind || t.Kind == idl.SetKind:
		return reaches(t.Elem, open)
	}
	return false
}

func sampleValue(b []byte, t *dynamic.Type, open map[*dynamic.Type]bool) []byte {
	p := wire.Binary
	switch t.Kind {
	case idl.ListKind, idl.SetKind:
		return sampleValue(p.AppendListHeader(b, t.Elem.Wire, 1), t.Elem, open)
	case idl.MapKind:
		b = sampleValue(p.AppendMapHeader(b, t.Key.Wire, t.Elem.Wire, 1), t.Key, open)
		return sampleValue(b, t.Elem, open)
	case idl.EnumKind:
		if len(t.Enum.Values) > 0 {
			return p.AppendI32(b, t.Enum.Values[0].Value)
		}
		return p.AppendI32(b, 0)
	case idl.BoolKind:
		return p.AppendBool(b, false)
	case idl.I8Kind:
		return p.AppendByte(b, 0)
	case idl.I16Kind:
		return p.AppendI16(b, 0)
	case idl.I32Kind:
		return p.AppendI32(b, 0)
	case idl.I64Kind:
		return p.AppendI64(b, 0)
	case idl.DoubleKind:
		return p.AppendDouble(b, 0)
	case idl.StringKind, idl.BinaryKind:
		return p.AppendString(b, "")
	case idl.UUIDKind:
		return p.AppendUUID(b, [16]byte{})
	}
	return sampleStruct(b, t, open)
}
