package idl

import "strings"

// File is one parsed IDL file with everything it declares, its types
// resolved. Included files are Files too, shared between the files that
// include them.
type File struct {
	// Path is where the file was read, a path in Options.FS (or the name
	// given to Parse).
	Path string
	// Name is the file's base name without its extension: the prefix other
	// files use for its declarations (shared.Shape).
	Name string
	// Doc is the file's doc comment (/** ... */ before its headers).
	Doc         string
	Namespaces  []*Namespace
	Includes    []*Include
	CppIncludes []string
	Typedefs    []*Typedef
	Enums       []*Enum
	// Structs holds structs, unions and exceptions in declaration order.
	Structs  []*Struct
	Consts   []*Const
	Services []*Service

	types    map[string]*Type
	services map[string]*Service
	consts   map[string]*Const
	values   map[string]*EnumValue // "Enum.VALUE"
	includes map[string]*File      // by Name
}

// Namespace is a `namespace scope name` header; Scope is "*" for the
// catch-all form.
type Namespace struct {
	Scope       string
	Name        string
	Annotations Annotations
	Pos         Pos
}

// Include is an `include "path"` header and the file it names.
type Include struct {
	Path string // as written
	File *File
	Pos  Pos
}

// Namespace returns the namespace declared for scope, else the one
// declared for "*", else "".
func (f *File) Namespace(scope string) string {
	star := ""
	for _, ns := range f.Namespaces {
		switch ns.Scope {
		case scope:
			return ns.Name
		case "*":
			star = ns.Name
		}
	}
	return star
}

// Type returns the type a name refers to from inside f: one of f's
// typedefs, enums, structs, unions or exceptions, or an included file's
// as prefix.Name. It returns nil when there is none.
func (f *File) Type(name string) *Type {
	if t, ok := f.types[name]; ok {
		return t
	}
	if inc, rest := f.include(name); inc != nil {
		return inc.types[rest]
	}
	return nil
}

// Service returns the service a name refers to from inside f, or nil.
func (f *File) Service(name string) *Service {
	if s, ok := f.services[name]; ok {
		return s
	}
	if inc, rest := f.include(name); inc != nil {
		return inc.services[rest]
	}
	return nil
}

// Const returns the constant a name refers to from inside f, or nil.
func (f *File) Const(name string) *Const {
	if c, ok := f.consts[name]; ok {
		return c
	}
	if inc, rest := f.include(name); inc != nil {
		return inc.consts[rest]
	}
	return nil
}

// EnumValue returns the enum value a name (Enum.VALUE or
// prefix.Enum.VALUE) refers to from inside f, or nil.
func (f *File) EnumValue(name string) *EnumValue {
	if v, ok := f.values[name]; ok {
		return v
	}
	if inc, rest := f.include(name); inc != nil {
		return inc.values[rest]
	}
	return nil
}

// include splits prefix.rest when prefix names an included file.
func (f *File) include(name string) (*File, string) {
	prefix, rest, ok := strings.Cut(name, ".")
	if !ok {
		return nil, ""
	}
	return f.includes[prefix], rest
}

// Typedef is `typedef Type Name`. Ref is the Type (TypedefKind) that
// fields naming the typedef point to.
type Typedef struct {
	Name        string
	File        *File
	Type        *Type // the aliased type, itself possibly a typedef
	Annotations Annotations
	Doc         string // the doc comment, /** ... */, cleaned up
	Pos         Pos
	Ref         *Type
}

// Enum is an enum declaration; its values keep their declaration order.
type Enum struct {
	Name        string
	File        *File
	Values      []*EnumValue
	Annotations Annotations
	Doc         string // the doc comment, /** ... */, cleaned up
	Pos         Pos
	Ref         *Type
}

// Value returns the enum's value named name, or nil.
func (e *Enum) Value(name string) *EnumValue {
	for _, v := range e.Values {
		if v.Name == name {
			return v
		}
	}
	return nil
}

// ByNumber returns the enum's first value numbered n, or nil.
func (e *Enum) ByNumber(n int32) *EnumValue {
	for _, v := range e.Values {
		if v.Value == n {
			return v
		}
	}
	return nil
}

// EnumValue is one member of an enum; Implicit when its number was
// assigned (the previous one plus one, or 0 first).
type EnumValue struct {
	Name        string
	Value       int32
	Implicit    bool
	Enum        *Enum
	Annotations Annotations
	Doc         string // the doc comment, /** ... */, cleaned up
	Pos         Pos
}

// Struct is a struct, union or exception (Kind says which), or a
// function's argument or throws list.
type Struct struct {
	Kind        Kind // StructKind, UnionKind or ExceptionKind
	Name        string
	File        *File
	Fields      []*Field // in declaration order
	Annotations Annotations
	XsdAll      bool
	Doc         string // the doc comment, /** ... */, cleaned up
	Pos         Pos
	Ref         *Type
}

// Field returns the field with id id, or nil.
func (s *Struct) Field(id int16) *Field {
	for _, f := range s.Fields {
		if f.ID == id {
			return f
		}
	}
	return nil
}

// FieldByName returns the field named name, or nil.
func (s *Struct) FieldByName(name string) *Field {
	for _, f := range s.Fields {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// Requiredness is a field's required, optional or default (neither)
// requiredness. Union members are always Optional; `optional` on a
// function argument is ignored, as the Apache compiler does.
type Requiredness uint8

const (
	Default Requiredness = iota
	Required
	Optional
)

func (r Requiredness) String() string {
	switch r {
	case Required:
		return "required"
	case Optional:
		return "optional"
	}
	return "default"
}

// Field is one field of a struct, union, exception, argument list or
// throws list. Implicit fields had no id, or a non-positive one, in the
// IDL and were given -1, -2, ... in order, as the Apache compiler does.
type Field struct {
	ID          int16
	Implicit    bool
	Name        string
	Type        *Type
	Required    Requiredness
	Default     *Value // nil when there is none
	Reference   bool   // declared with &
	Annotations Annotations
	Doc         string // the doc comment, /** ... */, cleaned up
	Pos         Pos

	raw *rawValue // the default as written, until resolved
}

// Const is `const Type NAME = value`.
type Const struct {
	Name  string
	File  *File
	Type  *Type
	Value *Value
	Doc   string // the doc comment, /** ... */, cleaned up
	Pos   Pos

	raw   *rawValue // the value as written, until resolved
	state resolveState
}

// Service is a service and its own functions; Extends is the service it
// extends, or nil.
type Service struct {
	Name        string
	File        *File
	Extends     *Service
	Functions   []*Function
	Annotations Annotations
	Doc         string // the doc comment, /** ... */, cleaned up
	Pos         Pos

	extends *token // the extends clause as written
}

// Function returns the function named name, looking through the services
// s extends, or nil.
func (s *Service) Function(name string) *Function {
	for ; s != nil; s = s.Extends {
		for _, fn := range s.Functions {
			if fn.Name == name {
				return fn
			}
		}
	}
	return nil
}

// Function is one function of a service. Return has VoidKind for void;
// Args (named name_args) and Throws (name_throws) are Structs of
// StructKind. Result (name_result) is what a reply carries on the wire:
// field 0 "success" of the Return type unless it is void, then the Throws
// fields; it is nil for a oneway function, which has no reply.
type Function struct {
	Name        string
	Service     *Service
	Oneway      bool
	Return      *Type
	Args        *Struct
	Throws      *Struct
	Result      *Struct
	Annotations Annotations
	Doc         string // the doc comment, /** ... */, cleaned up
	Pos         Pos
}

// Annotation is one `key = "value"` of an annotation list; a key written
// without a value has the value "1", as the Apache compiler gives it.
type Annotation struct {
	Key   string
	Value string
	Pos   Pos
}

// Annotations are an element's annotations in the order written.
type Annotations []Annotation

// Get returns the value of key, the last one when the key is repeated.
func (a Annotations) Get(key string) (string, bool) {
	for i := len(a) - 1; i >= 0; i-- {
		if a[i].Key == key {
			return a[i].Value, true
		}
	}
	return "", false
}

// Map returns the annotations as a map, later repeats of a key winning.
func (a Annotations) Map() map[string]string {
	m := make(map[string]string, len(a))
	for _, an := range a {
		m[an.Key] = an.Value
	}
	return m
}
