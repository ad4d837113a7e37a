package dynamic

import (
	"sync"
	"sync/atomic"

	"github.com/rpckit/rpckit/thrift/idl"
	"github.com/rpckit/rpckit/thrift/wire"
)

// denseSpan bounds the range of ids looked up by array rather than map.
const denseSpan = 1024

// Type is a Thrift type compiled into flat tables: a struct's fields by id
// (a dense array over the ids' range), by name and in declaration order;
// a container's element, key and value Types. Typedefs are looked through
// (IDL keeps the type as written); enums keep EnumKind. A Type is immutable
// once compiled and safe for concurrent use.
type Type struct {
	IDL  *idl.Type // the type as written, typedefs visible
	Kind idl.Kind  // the resolved kind: never TypedefKind
	Wire wire.Type // the wire type of its values
	// Key is a map's key Type; Elem a list's or set's element Type or
	// a map's value Type.
	Key, Elem *Type
	// Struct is the declaration of a struct, union or exception; its
	// annotations and doc are there.
	Struct *idl.Struct
	// Enum is the declaration of an enum.
	Enum *idl.Enum
	// Fields are a struct's fields in declaration order; Required those
	// declared required.
	Fields   []*Field
	Required []*Field

	cache    *Cache
	minID    int16
	byID     []*Field // index id-minID, when the ids span at most denseSpan
	sparse   map[int16]*Field
	byName   map[string]*Field
	attached atomic.Pointer[any]
}

// Field is one field of a struct Type.
type Field struct {
	IDL      *idl.Field // the declaration: annotations, default, doc
	ID       int16
	Name     string
	Type     *Type
	Required idl.Requiredness
	// Index is the field's position in its Type's Fields.
	Index int
}

// Name returns the type's name as the IDL writes it.
func (t *Type) Name() string { return t.IDL.String() }

// IsStruct reports whether t is a struct, union or exception.
func (t *Type) IsStruct() bool { return t.Kind.IsStruct() }

// FieldByID returns the field with id id, or nil.
func (t *Type) FieldByID(id int16) *Field {
	if i := int(id) - int(t.minID); uint(i) < uint(len(t.byID)) {
		return t.byID[i]
	}
	return t.sparse[id]
}

// FieldByName returns the field named name, or nil.
func (t *Type) FieldByName(name string) *Field {
	if len(t.Fields) <= 16 {
		for _, f := range t.Fields {
			if f.Name == name {
				return f
			}
		}
		return nil
	}
	return t.byName[name]
}

// Attached returns the value attached to t by Attach, or nil.
func (t *Type) Attached() any {
	if p := t.attached.Load(); p != nil {
		return *p
	}
	return nil
}

// Attach attaches v to t unless a value is attached already, and returns
// the value attached. A Type holds one such value, for the package that
// derives its own plans from Types (JSON mapping): they are dropped with
// the Type, when its Cache goes, rather than held in a map of their own.
func (t *Type) Attach(v any) any {
	if t.attached.CompareAndSwap(nil, &v) {
		return v
	}
	return *t.attached.Load()
}

// Cache returns the Cache that compiled t.
func (t *Type) Cache() *Cache { return t.cache }

// Cache holds compiled Types keyed by their IDL declaration. The zero
// Cache is ready to use and safe for concurrent use; its Types live as
// long as it does, and there is no process-wide one.
type Cache struct {
	compiled sync.Map // *idl.Type -> *Type, read without the lock
	mu       sync.Mutex
	types    map[*idl.Type]*Type // named types, under mu while compiling
}

// Type returns the compiled Type of t, compiling it and every type it
// reaches on first use. Named types (structs, enums, typedefs) are
// compiled once per declaration; t must come from a parsed idl model.
func (c *Cache) Type(t *idl.Type) *Type {
	if ct, ok := c.compiled.Load(t); ok {
		return ct.(*Type)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.types == nil {
		c.types = map[*idl.Type]*Type{}
	}
	ct := c.compile(t)
	c.compiled.Store(t, ct)
	return ct
}

// Struct returns the compiled Type of the struct, union or exception s.
func (c *Cache) Struct(s *idl.Struct) *Type { return c.Type(s.Ref) }
