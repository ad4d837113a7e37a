package dynamic

import (
	"github.com/rpckit/rpckit/wire"
	"google.golang.org/protobuf/encoding/protowire"
)

// Value is a message of a Type in wire form. It refers to its bytes
// without copying them; edits return new bytes.
type Value struct {
	t    *Type
	b    []byte
	base int // offset of b in the bytes the caller handed in, for errors
}

// NewValue returns the message of Type t encoded in b.
func NewValue(t *Type, b []byte) Value { return Value{t: t, b: b} }

// Type returns v's Type.
func (v Value) Type() *Type { return v.t }

// Bytes returns v's wire bytes.
func (v Value) Bytes() []byte { return v.b }

// sub returns the message of Type t at b[start:end] of v.
func (v Value) sub(t *Type, start, end int) Value {
	return Value{t: t, b: v.b[start:end:end], base: v.base + start}
}

// iter returns an iterator over v's records.
func (v Value) iter() wire.Iter { return wire.NewIter(v.b) }

// sibling reports whether a record numbered n of wire type wt is a value of
// another member of f's oneof, which clears f.
func (v Value) sibling(f *Field, n protowire.Number, wt protowire.Type) bool {
	if f.Oneof < 0 || n == f.Num {
		return false
	}
	g := v.t.FieldByNumber(n)
	return g != nil && g.Oneof == f.Oneof && g.accepts(wt)
}
