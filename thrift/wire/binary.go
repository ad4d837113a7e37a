package wire

import (
	"encoding/binary"
	"math"
)

// The binary protocol: fixed-width big-endian values, i32 lengths and
// counts, a type byte and an i16 id per field header.

// have reports whether b holds n bytes from off.
func have(b []byte, off, n int) bool { return off >= 0 && n <= len(b)-off }

func binBool(b []byte, off int) (bool, int, error) {
	if !have(b, off, 1) {
		return false, -1, errAt(off, CodeTruncated)
	}
	return b[off] == 1, off + 1, nil
}

func binByte(b []byte, off int) (int8, int, error) {
	if !have(b, off, 1) {
		return 0, -1, errAt(off, CodeTruncated)
	}
	return int8(b[off]), off + 1, nil
}

func binI16(b []byte, off int) (int16, int, error) {
	if !have(b, off, 2) {
		return 0, -1, errAt(off, CodeTruncated)
	}
	return int16(binary.BigEndian.Uint16(b[off:])), off + 2, nil
}

func binI32(b []byte, off int) (int32, int, error) {
	if !have(b, off, 4) {
		return 0, -1, errAt(off, CodeTruncated)
	}
	return int32(binary.BigEndian.Uint32(b[off:])), off + 4, nil
}

func binI64(b []byte, off int) (int64, int, error) {
	if !have(b, off, 8) {
		return 0, -1, errAt(off, CodeTruncated)
	}
	return int64(binary.BigEndian.Uint64(b[off:])), off + 8, nil
}

func binDouble(b []byte, off int) (float64, int, error) {
	v, next, err := binI64(b, off)
	return math.Float64frombits(uint64(v)), next, err
}

// binLen reads an i32 length or count at off and checks that n elements
// of at least min bytes each fit in what follows it.
func binLen(b []byte, off, min int) (int, int, error) {
	v, p, err := binI32(b, off)
	if err != nil {
		return 0, -1, err
	}
	if v < 0 {
		return 0, -1, errAt(off, CodeNegative)
	}
	if int(v) > (len(b)-p)/min {
		return 0, -1, errAt(off, CodeLength)
	}
	return int(v), p, nil
}

func binBinary(b []byte, off int) ([]byte, int, error) {
	n, p, err := binLen(b, off, 1)
	if err != nil {
		return nil, -1, err
	}
	return b[p : p+n : p+n], p + n, nil
}

func binListHeader(b []byte, off int) (Type, int, int, error) {
	if !have(b, off, 5) {
		return 0, 0, -1, errAt(off, CodeTruncated)
	}
	t := Type(b[off])
	if !t.Valid() {
		return 0, 0, -1, errAt(off, CodeType)
	}
	n, p, err := binLen(b, off+1, Binary.minSize(t))
	return t, n, p, err
}

func binMapHeader(b []byte, off int) (Type, Type, int, int, error) {
	if !have(b, off, 6) {
		return 0, 0, 0, -1, errAt(off, CodeTruncated)
	}
	k, v := Type(b[off]), Type(b[off+1])
	if !k.Valid() || !v.Valid() {
		return 0, 0, 0, -1, errAt(off, CodeType)
	}
	n, p, err := binLen(b, off+2, Binary.minSize(k)+Binary.minSize(v))
	return k, v, n, p, err
}

// binFieldHeader reads a field header: Stop alone, or a type and an id.
func binFieldHeader(b []byte, off int) (FieldHeader, int, error) {
	if !have(b, off, 1) {
		return FieldHeader{}, -1, errAt(off, CodeTruncated)
	}
	t := Type(b[off])
	if t == Stop {
		return FieldHeader{}, off + 1, nil
	}
	if !t.Valid() {
		return FieldHeader{}, -1, errAt(off, CodeType)
	}
	if !have(b, off, 3) {
		return FieldHeader{}, -1, errAt(off, CodeTruncated)
	}
	h := FieldHeader{Type: t, ID: int16(binary.BigEndian.Uint16(b[off+1:]))}
	if t == Bool {
		if !have(b, off, 4) {
			return FieldHeader{}, -1, errAt(off+3, CodeTruncated)
		}
		h.Bool = b[off+3] == 1
	}
	return h, off + 3, nil
}

func binAppendFieldHeader(dst []byte, t Type, id int16) []byte {
	return append(dst, byte(t), byte(uint16(id)>>8), byte(id))
}

func binAppendBool(dst []byte, v bool) []byte {
	if v {
		return append(dst, 1)
	}
	return append(dst, 0)
}

func binAppendI32(dst []byte, v int32) []byte { return binary.BigEndian.AppendUint32(dst, uint32(v)) }
