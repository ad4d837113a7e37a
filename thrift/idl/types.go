package idl

import (
	"strconv"
	"strings"
)

// Kind is what a Type is.
type Kind uint8

const (
	InvalidKind Kind = iota
	VoidKind         // function results only
	BoolKind
	I8Kind // also written byte
	I16Kind
	I32Kind
	I64Kind
	DoubleKind
	StringKind
	BinaryKind
	UUIDKind
	ListKind
	SetKind
	MapKind
	StructKind
	UnionKind
	ExceptionKind
	EnumKind
	TypedefKind
)

var kindNames = [...]string{
	InvalidKind: "invalid", VoidKind: "void", BoolKind: "bool", I8Kind: "i8", I16Kind: "i16", I32Kind: "i32",
	I64Kind: "i64", DoubleKind: "double", StringKind: "string", BinaryKind: "binary", UUIDKind: "uuid",
	ListKind: "list", SetKind: "set", MapKind: "map", StructKind: "struct", UnionKind: "union",
	ExceptionKind: "exception", EnumKind: "enum", TypedefKind: "typedef",
}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// IsBase reports whether k is a base type (bool through uuid).
func (k Kind) IsBase() bool { return k >= BoolKind && k <= UUIDKind }

// IsContainer reports whether k is list, set or map.
func (k Kind) IsContainer() bool { return k == ListKind || k == SetKind || k == MapKind }

// IsStruct reports whether k is struct, union or exception.
func (k Kind) IsStruct() bool { return k == StructKind || k == UnionKind || k == ExceptionKind }

// Type is a resolved type. Base and container types are one Type per place
// they are written (they carry that place's annotations and cpp_type);
// named types (structs, unions, exceptions, enums, typedefs) are one Type
// per declaration, the declaration's Ref, so pointers compare equal.
type Type struct {
	Kind Kind
	// Name is the declared name of a named type, the base type's keyword
	// (i8 for byte), or the container's kind.
	Name string
	// File declares a named type.
	File *File
	// Key is a map's key type; Elem a list's or set's element type or a
	// map's value type.
	Key, Elem *Type
	// Struct, Enum or Typedef is the declaration of a named type.
	Struct  *Struct
	Enum    *Enum
	Typedef *Typedef
	// CppType is a container's cpp_type "..." (kept, not used).
	CppType string
	// Annotations are those written on a base or container type, or the
	// declaration's for a named type.
	Annotations Annotations
	Pos         Pos
}

// Resolved returns t with its typedefs looked through.
func (t *Type) Resolved() *Type {
	for t != nil && t.Kind == TypedefKind {
		t = t.Typedef.Type
	}
	return t
}

// String renders t as IDL would write it, named types by their declared
// name.
func (t *Type) String() string {
	var b strings.Builder
	t.write(&b)
	return b.String()
}

func (t *Type) write(b *strings.Builder) {
	switch {
	case t == nil:
		b.WriteString("<nil>")
	case t.Kind == MapKind:
		b.WriteString("map<")
		t.Key.write(b)
		b.WriteString(",")
		t.Elem.write(b)
		b.WriteString(">")
	case t.Kind == ListKind || t.Kind == SetKind:
		b.WriteString(t.Kind.String() + "<")
		t.Elem.write(b)
		b.WriteString(">")
	default:
		b.WriteString(t.Name)
	}
}

// baseKinds maps the base type keywords to their kinds.
var baseKinds = map[string]Kind{
	"bool": BoolKind, "byte": I8Kind, "i8": I8Kind, "i16": I16Kind, "i32": I32Kind, "i64": I64Kind,
	"double": DoubleKind, "string": StringKind, "binary": BinaryKind, "uuid": UUIDKind,
}
