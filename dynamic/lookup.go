package dynamic

import (
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Look-ups by name bytes, for parsers that hold names as slices of their
// input: indexing a map with string(b) does not allocate.

// FieldByNameBytes returns the field with the proto name b, or nil.
func (t *Type) FieldByNameBytes(b []byte) *Field { return t.byName[string(b)] }

// FieldByJSONNameBytes returns the field with the JSON name b, or nil.
func (t *Type) FieldByJSONNameBytes(b []byte) *Field { return t.byJSON[string(b)] }

// NumberBytes returns the number of the value named b.
func (e *Enum) NumberBytes(b []byte) (protoreflect.EnumNumber, bool) {
	n, ok := e.byName[string(b)]
	return n, ok
}

// Extension returns the compiled Field of the extension xd, compiling it
// and the messages it reaches on first use. Its Oneof is -1.
func (c *Cache) Extension(xd protoreflect.ExtensionTypeDescriptor) *Field {
	if f, ok := c.types.Load(xd.Descriptor()); ok {
		return f.(*Field)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if f, ok := c.types.Load(xd.Descriptor()); ok {
		return f.(*Field)
	}
	k := compiler{cache: c, done: map[protoreflect.MessageDescriptor]*Type{}}
	f := k.field(nil, xd)
	for d, t := range k.done {
		c.types.Store(d, t)
	}
	c.types.Store(xd.Descriptor(), f)
	return f
}

// ExtensionOf returns the Field of the extension xd from the process-wide
// cache of TypeOf.
func ExtensionOf(xd protoreflect.ExtensionTypeDescriptor) *Field { return defaultCache.Extension(xd) }
