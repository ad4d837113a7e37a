package dynamic

import (
	"sync"
	"sync/atomic"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// denseLimit bounds the field numbers looked up by array rather than map.
const denseLimit = 256

// Type is a message descriptor compiled into flat tables. A Type is
// immutable once compiled and safe for concurrent use.
type Type struct {
	Desc   protoreflect.MessageDescriptor
	Fields []*Field // in declaration order
	Oneofs []*Oneof // real oneofs, not the synthetic ones of proto3 optional
	// MapEntry reports whether this is the entry type of a map field.
	MapEntry bool
	// Required lists the proto2 required fields, in declaration order.
	Required []*Field

	fullName protoreflect.FullName // Desc.FullName(), without a call through the interface
	cache    *Cache                // the Cache that compiled it
	dense    []*Field              // by number, for numbers below denseLimit
	sparse   map[protowire.Number]*Field
	byName   map[string]*Field
	byJSON   map[string]*Field
	tags     [128]tagOp
	// attached is what a package derived from this Type (transcode's
	// plan), kept here to live and die with it.
	attached atomic.Pointer[any]
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
// derives its own tables from Types (transcode): they are dropped with the
// Type, when its Cache goes, rather than held in a map of their own.
func (t *Type) Attach(v any) any {
	if t.attached.CompareAndSwap(nil, &v) {
		return v
	}
	return *t.attached.Load()
}

// Oneof is a real oneof of a Type.
type Oneof struct {
	Name   string
	Index  int
	Fields []*Field
}

// FieldByNumber returns the field numbered n, or nil.
func (t *Type) FieldByNumber(n protowire.Number) *Field {
	if uint(n) < uint(len(t.dense)) {
		return t.dense[n]
	}
	return t.sparse[n]
}

// FieldByName returns the field with the given proto name, or nil.
func (t *Type) FieldByName(name string) *Field { return t.byName[name] }

// FieldByJSONName returns the field with the given JSON name, or nil.
func (t *Type) FieldByJSONName(name string) *Field { return t.byJSON[name] }

// lookup finds a field by proto name, then by JSON name. Small messages
// are searched in order, which beats hashing the name.
func (t *Type) lookup(name string) *Field {
	if len(t.Fields) <= 16 {
		for _, f := range t.Fields {
			if f.Name == name {
				return f
			}
		}
	} else if f := t.byName[name]; f != nil {
		return f
	}
	return t.byJSON[name]
}

// Cache returns the Cache that compiled t: the one to compile the types a
// message of t refers to at run time (an Any's content, an extension), so
// that they go when t goes.
func (t *Type) Cache() *Cache { return t.cache }

// FullName returns the message's full name.
func (t *Type) FullName() protoreflect.FullName { return t.fullName }

// Cache holds compiled Types keyed by descriptor. The zero Cache is ready
// to use and safe for concurrent use.
type Cache struct {
	types sync.Map // protoreflect.MessageDescriptor -> *Type
	mu    sync.Mutex
}

// Type returns the compiled Type of md, compiling it and every message it
// reaches on first use.
func (c *Cache) Type(md protoreflect.MessageDescriptor) *Type {
	if t, ok := c.types.Load(md); ok {
		return t.(*Type)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.types.Load(md); ok {
		return t.(*Type)
	}
	k := compiler{cache: c, done: map[protoreflect.MessageDescriptor]*Type{}}
	t := k.compile(md)
	for d, t := range k.done {
		c.types.Store(d, t)
	}
	return t
}

// defaultCache backs TypeOf.
var defaultCache Cache

// TypeOf returns the Type of md from a process-wide cache.
func TypeOf(md protoreflect.MessageDescriptor) *Type { return defaultCache.Type(md) }
