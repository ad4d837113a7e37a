package dynamic

import (
	"encoding/binary"

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

// JSONKeyMatch reports whether a JSON object key whose text after the
// opening quote starts with the little-endian words w0 and w1 is f's JSON
// name: the name and the closing quote, compared in two masked words. It
// returns their length, 0 when the key is another, and -1 when the name is
// longer than 15 bytes, which it does not check.
func (f *Field) JSONKeyMatch(w0, w1 uint64) int {
	switch {
	case f.jsonMask[0] == 0:
		return -1
	case w0&f.jsonMask[0] != f.jsonKey[0] || w1&f.jsonMask[1] != f.jsonKey[1]:
		return 0
	}
	return len(f.JSONName) + 1
}

// keyWords returns k zero-padded to 16 bytes as two little-endian words,
// and the mask of its bytes; zeros if k is longer.
func keyWords(k string) (key, mask [2]uint64) {
	if len(k) > 16 {
		return key, mask
	}
	var b, m [16]byte
	copy(b[:], k)
	for i := range len(k) {
		m[i] = 0xff
	}
	key = [2]uint64{binary.LittleEndian.Uint64(b[:8]), binary.LittleEndian.Uint64(b[8:])}
	mask = [2]uint64{binary.LittleEndian.Uint64(m[:8]), binary.LittleEndian.Uint64(m[8:])}
	return key, mask
}
