package dynamic

import (
	"github.com/rpckit/rpckit/thrift/idl"
	"github.com/rpckit/rpckit/thrift/wire"
)

// valKind says which member of a Val is set.
type valKind uint8

const (
	valBool valKind = iota + 1
	valInt
	valFloat
	valString
	valBinary
	valUUID
	valEncoded
)

// Val is a value for Set: a base type's value, or the encoding of a value
// of any type in the message's protocol. Make one with BoolVal, IntVal,
// FloatVal, StringVal, BinaryVal, UUIDVal or EncodedVal.
type Val struct {
	kind valKind
	i    int64
	f    float64
	s    string
	b    []byte
	u    [16]byte
}

// BoolVal returns a bool.
func BoolVal(v bool) Val {
	x := Val{kind: valBool}
	if v {
		x.i = 1
	}
	return x
}

// IntVal returns an integer for an i8, i16, i32, i64 or enum, which must
// hold it.
func IntVal(v int64) Val { return Val{kind: valInt, i: v} }

// FloatVal returns a double.
func FloatVal(v float64) Val { return Val{kind: valFloat, f: v} }

// StringVal returns a string (also for a binary).
func StringVal(v string) Val { return Val{kind: valString, s: v} }

// BinaryVal returns a binary (also for a string).
func BinaryVal(v []byte) Val { return Val{kind: valBinary, b: v} }

// UUIDVal returns a uuid.
func UUIDVal(v [16]byte) Val { return Val{kind: valUUID, u: v} }

// EncodedVal returns a value already encoded in the message's protocol:
// the way to set a struct or a container. Set validates it against the
// Type at the path.
func EncodedVal(b []byte) Val { return Val{kind: valEncoded, b: b} }

// size bounds the bytes x encodes to.
func (x Val) size() int { return 16 + len(x.s) + len(x.b) }

// appendTo appends x encoded as a value of t in protocol p, or says why
// it cannot be one.
func (x Val) appendTo(dst []byte, p wire.Protocol, t *Type) ([]byte, string) {
	if x.kind == valEncoded {
		if err := (ValidateOptions{}).value(p, x.b, t); err != nil {
			return dst, "encoded value: " + err.Error()
		}
		return append(dst, x.b...), ""
	}
	switch t.Wire {
	case wire.Bool:
		if x.kind == valBool {
			return p.AppendBool(dst, x.i == 1), ""
		}
	case wire.Byte, wire.I16, wire.I32, wire.I64:
		if x.kind != valInt {
			break
		}
		if !fitsInt(t.Wire, x.i) {
			return dst, "value out of the range of " + t.Name()
		}
		return appendInt(dst, p, t.Wire, x.i), ""
	case wire.Double:
		if x.kind == valFloat {
			return p.AppendDouble(dst, x.f), ""
		}
	case wire.String:
		if x.kind == valString {
			return p.AppendString(dst, x.s), ""
		}
		if x.kind == valBinary {
			return p.AppendBinary(dst, x.b), ""
		}
	case wire.UUID:
		if x.kind == valUUID {
			return p.AppendUUID(dst, x.u), ""
		}
	}
	return dst, "a " + x.kindName() + " cannot be a " + t.Name()
}

func appendInt(dst []byte, p wire.Protocol, t wire.Type, i int64) []byte {
	switch t {
	case wire.Byte:
		return p.AppendByte(dst, int8(i))
	case wire.I16:
		return p.AppendI16(dst, int16(i))
	case wire.I32:
		return p.AppendI32(dst, int32(i))
	}
	return p.AppendI64(dst, i)
}

func (x Val) kindName() string {
	switch x.kind {
	case valBool:
		return "bool"
	case valInt:
		return "integer"
	case valFloat:
		return "double"
	case valString:
		return "string"
	case valBinary:
		return "binary"
	case valUUID:
		return "uuid"
	}
	return "missing value"
}

// isBool reports whether t is bool, whose compact struct fields hold their
// value in the header.
func isBool(t *Type) bool { return t.Kind == idl.BoolKind }
