package wire

import (
	"encoding/binary"
	"math"
)

// The compact protocol: zigzag varints, little-endian doubles, varint
// lengths, a field header of one byte (id delta and type) where the delta
// fits, booleans of fields held in the header, and its own type codes.

// The compact protocol's type codes.
const (
	ctStop   = 0
	ctTrue   = 1
	ctFalse  = 2
	ctByte   = 3
	ctI16    = 4
	ctI32    = 5
	ctI64    = 6
	ctDouble = 7
	ctBinary = 8
	ctList   = 9
	ctSet    = 10
	ctMap    = 11
	ctStruct = 12
	ctUUID   = 13
)

// fromCompact maps a compact type code to a Type (Stop for an unknown
// code); both boolean codes are Bool.
var fromCompact = [16]Type{
	ctTrue: Bool, ctFalse: Bool, ctByte: Byte, ctI16: I16, ctI32: I32, ctI64: I64, ctDouble: Double,
	ctBinary: String, ctList: List, ctSet: Set, ctMap: Map, ctStruct: Struct, ctUUID: UUID,
}

// toCompact maps a Type to its compact code; Bool maps to true's code, as
// in the element type of a container.
var toCompact = [...]byte{
	Bool: ctTrue, Byte: ctByte, Double: ctDouble, I16: ctI16, I32: ctI32, I64: ctI64, String: ctBinary,
	Struct: ctStruct, Map: ctMap, Set: ctSet, List: ctList, UUID: ctUUID,
}

func compactCode(t Type) byte {
	if int(t) < len(toCompact) {
		return toCompact[t]
	}
	return ctStop
}

// A varint's width: at most n bytes, the nth no larger than top (so that
// the value fits 16, 32 or 64 bits). Longer encodings, even of small
// values, are refused with CodeVarint.
type width struct {
	n   int
	top byte
}

var (
	width16 = width{3, 0x03}
	width32 = width{5, 0x0f}
	width64 = width{10, 0x01}
)

// uvarint reads a varint of width w.
func uvarint(b []byte, off int, w width) (uint64, int, error) {
	if off < 0 {
		return 0, -1, errAt(off, CodeTruncated)
	}
	var v uint64
	for i := 0; i < w.n; i++ {
		if off+i >= len(b) {
			return 0, -1, errAt(off, CodeTruncated)
		}
		c := b[off+i]
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			if i == w.n-1 && c > w.top {
				break
			}
			return v, off + i + 1, nil
		}
	}
	return 0, -1, errAt(off, CodeVarint)
}

// varintEnd returns the end of the varint of width w at off, without
// decoding it: Skip's form of uvarint, which accepts the same varints.
func varintEnd(b []byte, off int, w width) (int, error) {
	if off >= 0 && off < len(b) && b[off] < 0x80 {
		return off + 1, nil
	}
	for i := 1; i < w.n && off >= 0; i++ {
		if off+i >= len(b) {
			return -1, errAt(off, CodeTruncated)
		}
		if c := b[off+i]; c < 0x80 {
			if i == w.n-1 && c > w.top {
				break
			}
			return off + i + 1, nil
		}
	}
	if off < 0 || off >= len(b) {
		return -1, errAt(off, CodeTruncated)
	}
	return -1, errAt(off, CodeVarint)
}

func unzigzag(v uint64) int64 { return int64(v>>1) ^ -int64(v&1) }

func zigzag(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

func cmpI16(b []byte, off int) (int16, int, error) {
	v, p, err := uvarint(b, off, width16)
	return int16(unzigzag(v)), p, err
}

func cmpI32(b []byte, off int) (int32, int, error) {
	v, p, err := uvarint(b, off, width32)
	return int32(unzigzag(v)), p, err
}

func cmpI64(b []byte, off int) (int64, int, error) {
	v, p, err := uvarint(b, off, width64)
	return unzigzag(v), p, err
}

func cmpDouble(b []byte, off int) (float64, int, error) {
	if !have(b, off, 8) {
		return 0, -1, errAt(off, CodeTruncated)
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(b[off:])), off + 8, nil
}

// cmpLen reads a varint length or count at off and checks that n elements
// of at least min bytes each fit in what follows it.
func cmpLen(b []byte, off, min int) (int, int, error) {
	v, p, err := uvarint(b, off, width32)
	if err != nil {
		return 0, -1, err
	}
	if v > math.MaxInt32 {
		return 0, -1, errAt(off, CodeNegative)
	}
	if int(v) > (len(b)-p)/min {
		return 0, -1, errAt(off, CodeLength)
	}
	return int(v), p, nil
}

func cmpBinary(b []byte, off int) ([]byte, int, error) {
	n, p, err := cmpLen(b, off, 1)
	if err != nil {
		return nil, -1, err
	}
	return b[p : p+n : p+n], p + n, nil
}

func cmpListHeader(b []byte, off int) (Type, int, int, error) {
	if !have(b, off, 1) {
		return 0, 0, -1, errAt(off, CodeTruncated)
	}
	t := fromCompact[b[off]&0x0f]
	if t == Stop {
		return 0, 0, -1, errAt(off, CodeType)
	}
	n, p := int(b[off]>>4), off+1
	if n == 15 {
		var err error
		if n, p, err = cmpLen(b, p, Compact.minSize(t)); err != nil {
			return 0, 0, -1, err
		}
	} else if n > (len(b)-p)/Compact.minSize(t) {
		return 0, 0, -1, errAt(off, CodeLength)
	}
	return t, n, p, nil
}

func cmpMapHeader(b []byte, off int) (Type, Type, int, int, error) {
	n, p, err := cmpLen(b, off, 2)
	if err != nil || n == 0 {
		return Stop, Stop, n, p, err
	}
	kv := b[p] // cmpLen left at least two bytes
	k, v := fromCompact[kv>>4], fromCompact[kv&0x0f]
	if k == Stop || v == Stop {
		return 0, 0, 0, -1, errAt(p, CodeType)
	}
	if n > (len(b)-p-1)/(Compact.minSize(k)+Compact.minSize(v)) {
		return 0, 0, 0, -1, errAt(off, CodeLength)
	}
	return k, v, n, p + 1, nil
}

// cmpFieldHeader reads a field header, whose id is last plus the delta in
// its high nibble or, when that is zero, a zigzag varint that follows.
func cmpFieldHeader(b []byte, off int, last int16) (FieldHeader, int, error) {
	if !have(b, off, 1) {
		return FieldHeader{}, -1, errAt(off, CodeTruncated)
	}
	c := b[off]
	ct := c & 0x0f
	if ct == ctStop {
		return FieldHeader{}, off + 1, nil
	}
	h := FieldHeader{Type: fromCompact[ct], Bool: ct == ctTrue}
	if h.Type == Stop {
		return FieldHeader{}, -1, errAt(off, CodeType)
	}
	if d := c >> 4; d != 0 {
		h.ID = last + int16(d)
		return h, off + 1, nil
	}
	id, p, err := cmpI16(b, off+1)
	h.ID = id
	return h, p, err
}

func cmpAppendFieldHeader(dst []byte, ct byte, id, last int16) []byte {
	if d := int(id) - int(last); d > 0 && d <= 15 {
		return append(dst, byte(d)<<4|ct)
	}
	return binary.AppendUvarint(append(dst, ct), zigzag(int64(id)))
}

func cmpAppendLen(dst []byte, n int) []byte { return binary.AppendUvarint(dst, uint64(n)) }
