package dynamic

import (
	"github.com/rpckit/rpckit/thrift/idl"
	"github.com/rpckit/rpckit/thrift/wire"
)

// compile compiles t under c.mu. Named types are entered in the cache
// before their fields are, so recursive types end.
func (c *Cache) compile(t *idl.Type) *Type {
	if ct, ok := c.types[t]; ok {
		return ct
	}
	r := t.Resolved()
	ct := &Type{IDL: t, Kind: r.Kind, Wire: wireType(r.Kind), cache: c}
	if t.Kind == idl.TypedefKind || r.Kind.IsStruct() || r.Kind == idl.EnumKind {
		c.types[t] = ct
	}
	switch {
	case r.Kind.IsStruct():
		c.compileStruct(ct, r.Struct)
	case r.Kind == idl.EnumKind:
		ct.Enum = r.Enum
	case r.Kind == idl.MapKind:
		ct.Key, ct.Elem = c.compile(r.Key), c.compile(r.Elem)
	case r.Kind == idl.ListKind || r.Kind == idl.SetKind:
		ct.Elem = c.compile(r.Elem)
	}
	return ct
}

func (c *Cache) compileStruct(ct *Type, s *idl.Struct) {
	ct.Struct = s
	ct.Fields = make([]*Field, len(s.Fields))
	ct.byName = make(map[string]*Field, len(s.Fields))
	lo, hi := int16(0), int16(0)
	for i, f := range s.Fields {
		ct.Fields[i] = &Field{IDL: f, ID: f.ID, Name: f.Name, Required: f.Required, Index: i}
		ct.byName[f.Name] = ct.Fields[i]
		if i == 0 || f.ID < lo {
			lo = f.ID
		}
		if i == 0 || f.ID > hi {
			hi = f.ID
		}
		if f.Required == idl.Required {
			ct.Required = append(ct.Required, ct.Fields[i])
		}
	}
	if span := int(hi) - int(lo) + 1; len(s.Fields) > 0 && span <= denseSpan {
		ct.minID = lo
		ct.byID = make([]*Field, span)
	} else {
		ct.sparse = make(map[int16]*Field, len(s.Fields))
	}
	for _, f := range ct.Fields {
		if ct.byID != nil {
			ct.byID[int(f.ID)-int(lo)] = f
		} else {
			ct.sparse[f.ID] = f
		}
		f.Type = c.compile(f.IDL.Type)
	}
}

// wireType returns the wire type of a resolved kind.
func wireType(k idl.Kind) wire.Type {
	switch k {
	case idl.BoolKind:
		return wire.Bool
	case idl.I8Kind:
		return wire.Byte
	case idl.I16Kind:
		return wire.I16
	case idl.I32Kind, idl.EnumKind:
		return wire.I32
	case idl.I64Kind:
		return wire.I64
	case idl.DoubleKind:
		return wire.Double
	case idl.StringKind, idl.BinaryKind:
		return wire.String
	case idl.UUIDKind:
		return wire.UUID
	case idl.ListKind:
		return wire.List
	case idl.SetKind:
		return wire.Set
	case idl.MapKind:
		return wire.Map
	case idl.StructKind, idl.UnionKind, idl.ExceptionKind:
		return wire.Struct
	}
	return wire.Stop
}
