package wire

import (
	"encoding/binary"
	"math"
)

// The value readers and appenders of both protocols. Each method picks the
// protocol's function with one branch on p; the functions themselves are
// concrete, so the choice costs no interface call.
//
// The readers take the slice and the offset of the value and return the
// value and the offset past it, or an *Error. Byte strings are sub-slices
// of b, never copies.

// ConsumeBool reads a bool value (of a container element or a message:
// a compact struct field's bool is in its header, see [FieldHeader]).
func (p Protocol) ConsumeBool(b []byte, off int) (bool, int, error) {
	return binBool(b, off) // one byte in both: 1 is true, anything else false
}

// ConsumeByte reads a byte (i8).
func (p Protocol) ConsumeByte(b []byte, off int) (int8, int, error) { return binByte(b, off) }

// ConsumeI16 reads an i16.
func (p Protocol) ConsumeI16(b []byte, off int) (int16, int, error) {
	if p == Compact {
		return cmpI16(b, off)
	}
	return binI16(b, off)
}

// ConsumeI32 reads an i32 (and an enum).
func (p Protocol) ConsumeI32(b []byte, off int) (int32, int, error) {
	if p == Compact {
		return cmpI32(b, off)
	}
	return binI32(b, off)
}

// ConsumeI64 reads an i64.
func (p Protocol) ConsumeI64(b []byte, off int) (int64, int, error) {
	if p == Compact {
		return cmpI64(b, off)
	}
	return binI64(b, off)
}

// ConsumeDouble reads a double.
func (p Protocol) ConsumeDouble(b []byte, off int) (float64, int, error) {
	if p == Compact {
		return cmpDouble(b, off)
	}
	return binDouble(b, off)
}

// ConsumeBinary reads a string or binary value: its bytes, a sub-slice of
// b whose length the input bounds.
func (p Protocol) ConsumeBinary(b []byte, off int) ([]byte, int, error) {
	if p == Compact {
		return cmpBinary(b, off)
	}
	return binBinary(b, off)
}

// ConsumeUUID reads a uuid: sixteen bytes in both protocols.
func (p Protocol) ConsumeUUID(b []byte, off int) ([16]byte, int, error) {
	if !have(b, off, 16) {
		return [16]byte{}, -1, errAt(off, CodeTruncated)
	}
	return [16]byte(b[off : off+16]), off + 16, nil
}

// ConsumeListHeader reads the header of a list: the element type and the
// count, which is no more than the rest of the input could hold.
func (p Protocol) ConsumeListHeader(b []byte, off int) (Type, int, int, error) {
	if p == Compact {
		return cmpListHeader(b, off)
	}
	return binListHeader(b, off)
}

// ConsumeSetHeader reads the header of a set, encoded as a list's.
func (p Protocol) ConsumeSetHeader(b []byte, off int) (Type, int, int, error) {
	return p.ConsumeListHeader(b, off)
}

// ConsumeMapHeader reads the header of a map: key type, value type and
// count. The compact protocol writes no types for an empty map, which
// reads as Stop, Stop, 0.
func (p Protocol) ConsumeMapHeader(b []byte, off int) (Type, Type, int, int, error) {
	if p == Compact {
		return cmpMapHeader(b, off)
	}
	return binMapHeader(b, off)
}

// AppendBool appends a bool value (of a container element or a message;
// for a struct field see [Protocol.AppendBoolField]): 1 for true, and for
// false 0 in the binary protocol, 2 in the compact one, as the Apache
// libraries write it.
func (p Protocol) AppendBool(dst []byte, v bool) []byte {
	if p == Compact && !v {
		return append(dst, ctFalse)
	}
	return binAppendBool(dst, v)
}

// AppendByte appends a byte (i8).
func (p Protocol) AppendByte(dst []byte, v int8) []byte { return append(dst, byte(v)) }

// AppendI16 appends an i16.
func (p Protocol) AppendI16(dst []byte, v int16) []byte {
	if p == Compact {
		return binary.AppendUvarint(dst, zigzag(int64(v)))
	}
	return binary.BigEndian.AppendUint16(dst, uint16(v))
}

// AppendI32 appends an i32.
func (p Protocol) AppendI32(dst []byte, v int32) []byte {
	if p == Compact {
		return binary.AppendUvarint(dst, zigzag(int64(v)))
	}
	return binAppendI32(dst, v)
}

// AppendI64 appends an i64.
func (p Protocol) AppendI64(dst []byte, v int64) []byte {
	if p == Compact {
		return binary.AppendUvarint(dst, zigzag(v))
	}
	return binary.BigEndian.AppendUint64(dst, uint64(v))
}

// AppendDouble appends a double.
func (p Protocol) AppendDouble(dst []byte, v float64) []byte {
	if p == Compact {
		return binary.LittleEndian.AppendUint64(dst, math.Float64bits(v))
	}
	return binary.BigEndian.AppendUint64(dst, math.Float64bits(v))
}

// AppendBinary appends a binary value.
func (p Protocol) AppendBinary(dst, v []byte) []byte {
	return append(p.appendLen(dst, len(v)), v...)
}

// AppendString appends a string value.
func (p Protocol) AppendString(dst []byte, v string) []byte {
	return append(p.appendLen(dst, len(v)), v...)
}

func (p Protocol) appendLen(dst []byte, n int) []byte {
	if p == Compact {
		return cmpAppendLen(dst, n)
	}
	return binAppendI32(dst, int32(n))
}

// AppendUUID appends a uuid.
func (p Protocol) AppendUUID(dst []byte, v [16]byte) []byte { return append(dst, v[:]...) }

// AppendListHeader appends the header of a list of n elements of type t.
func (p Protocol) AppendListHeader(dst []byte, t Type, n int) []byte {
	if p == Binary {
		return binAppendI32(append(dst, byte(t)), int32(n))
	}
	if n < 15 {
		return append(dst, byte(n)<<4|compactCode(t))
	}
	return cmpAppendLen(append(dst, 0xf0|compactCode(t)), n)
}

// AppendSetHeader appends the header of a set, encoded as a list's.
func (p Protocol) AppendSetHeader(dst []byte, t Type, n int) []byte {
	return p.AppendListHeader(dst, t, n)
}

// AppendMapHeader appends the header of a map of n entries.
func (p Protocol) AppendMapHeader(dst []byte, k, v Type, n int) []byte {
	if p == Binary {
		return binAppendI32(append(dst, byte(k), byte(v)), int32(n))
	}
	dst = cmpAppendLen(dst, n)
	if n == 0 {
		return dst
	}
	return append(dst, compactCode(k)<<4|compactCode(v))
}
