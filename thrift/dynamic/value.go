package dynamic

import (
	"github.com/rpckit/rpckit/thrift/idl"
	"github.com/rpckit/rpckit/thrift/wire"
)

// Value is a value of a Type in wire form: the bytes it lies in, the span
// of its encoding, and whether it is there at all. It refers to the bytes
// without copying them; edits return new bytes. A Value found by Get has
// been bounds-checked (its span skipped), so its accessors do not fail;
// on a Value of another Kind they return the zero value.
type Value struct {
	t          *Type
	p          wire.Protocol
	b          []byte
	start, end int
	ok         bool
	bv         bool // a compact bool field's value, held in its header
	hb         bool // bv is set
}

// NewValue returns the struct of Type t encoded in b in protocol p; b holds
// that struct and nothing after it.
func NewValue(t *Type, p wire.Protocol, b []byte) Value {
	return Value{t: t, p: p, b: b, end: len(b), ok: true}
}

// Type returns the value's Type.
func (v Value) Type() *Type { return v.t }

// Kind returns the value's resolved kind.
func (v Value) Kind() idl.Kind { return v.t.Kind }

// Protocol returns the protocol of the value's bytes.
func (v Value) Protocol() wire.Protocol { return v.p }

// Bytes returns all the bytes the value lies in (the whole message).
func (v Value) Bytes() []byte { return v.b }

// Raw returns the value's encoding: its span of Bytes. A compact bool
// field has none; its value is in its header.
func (v Value) Raw() []byte { return v.b[v.start:v.end] }

// Span returns the offsets of the value's encoding in Bytes.
func (v Value) Span() (start, end int) { return v.start, v.end }

// Exists reports whether the value is present. An absent value reads as
// its type's zero value.
func (v Value) Exists() bool { return v.ok }

// Bool returns a bool.
func (v Value) Bool() bool {
	if v.hb {
		return v.bv
	}
	return v.ok && v.t.Wire == wire.Bool && v.start < v.end && v.b[v.start] == 1
}

// Int returns an i8, i16, i32, i64 or enum.
func (v Value) Int() int64 {
	if !v.ok {
		return 0
	}
	switch v.t.Wire {
	case wire.Byte:
		x, _, _ := v.p.ConsumeByte(v.b, v.start)
		return int64(x)
	case wire.I16:
		x, _, _ := v.p.ConsumeI16(v.b, v.start)
		return int64(x)
	case wire.I32:
		x, _, _ := v.p.ConsumeI32(v.b, v.start)
		return int64(x)
	case wire.I64:
		x, _, _ := v.p.ConsumeI64(v.b, v.start)
		return x
	}
	return 0
}

// Float returns a double.
func (v Value) Float() float64 {
	if !v.ok || v.t.Wire != wire.Double {
		return 0
	}
	x, _, _ := v.p.ConsumeDouble(v.b, v.start)
	return x
}

// Binary returns a string or binary as a view of the message's bytes.
func (v Value) Binary() []byte {
	if !v.ok || v.t.Wire != wire.String {
		return nil
	}
	x, _, _ := v.p.ConsumeBinary(v.b, v.start)
	return x
}

// String returns a string (or binary) as a copy.
func (v Value) String() string { return string(v.Binary()) }

// UUID returns a uuid.
func (v Value) UUID() [16]byte {
	if !v.ok || v.t.Wire != wire.UUID {
		return [16]byte{}
	}
	x, _, _ := v.p.ConsumeUUID(v.b, v.start)
	return x
}

// Len returns the number of elements of a list, set or map.
func (v Value) Len() int {
	if !v.ok {
		return 0
	}
	var n int
	switch v.t.Wire {
	case wire.List, wire.Set:
		_, n, _, _ = v.p.ConsumeListHeader(v.b, v.start)
	case wire.Map:
		_, _, n, _, _ = v.p.ConsumeMapHeader(v.b, v.start)
	}
	return n
}

// absent returns an absent Value of type t.
func (v Value) absent(t *Type) Value { return Value{t: t, p: v.p, b: v.b} }
