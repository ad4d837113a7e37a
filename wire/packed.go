package wire

import (
	"encoding/binary"
	"math/bits"

	"google.golang.org/protobuf/encoding/protowire"
)

// NextPacked decodes one element of a packed run b[off:end] whose elements
// have wire type typ (varint, fixed32 or fixed64). It returns the element's
// bits and the offset of the next element.
func NextPacked(b []byte, off, end int, typ protowire.Type) (uint64, int, error) {
	b = b[:end]
	var (
		v    uint64
		next int
		c    Code
	)
	switch typ {
	case protowire.VarintType:
		v, next, c = Varint(b, off)
	case protowire.Fixed32Type:
		var u uint32
		u, next, c = Fixed32(b, off)
		v = uint64(u)
	case protowire.Fixed64Type:
		v, next, c = Fixed64(b, off)
	default:
		c = CodeWireTypeMismatch
	}
	if c != 0 {
		return 0, -1, errAt(off, c)
	}
	return v, next, nil
}

// CountPacked returns the number of elements of the packed run b[off:end],
// or an error if the run is malformed.
func CountPacked(b []byte, off, end int, typ protowire.Type) (int, error) {
	switch typ {
	case protowire.Fixed32Type, protowire.Fixed64Type:
		size := 4
		if typ == protowire.Fixed64Type {
			size = 8
		}
		if (end-off)%size != 0 {
			return 0, errAt(end-(end-off)%size, CodeTruncated)
		}
		return (end - off) / size, nil
	case protowire.VarintType:
		return countVarints(b[:end], off)
	}
	return 0, errAt(off, CodeWireTypeMismatch)
}

// countVarints counts the varints of b[off:] in one pass: a varint ends at
// its first byte below 0x80, and its tenth byte, if it gets there, must be
// 0 or 1.
func countVarints(b []byte, off int) (int, error) {
	if len(b) > off && b[len(b)-1] >= 0x80 {
		return 0, errAt(len(b)-1, CodeTruncatedVarint)
	}
	n, start := 0, off
	for i := off; i < len(b); i++ {
		c := b[i]
		if i-start == 9 && c > 1 {
			return 0, errAt(start, CodeOverflowVarint)
		}
		if c < 0x80 {
			n++
			start = i + 1
		}
	}
	return n, nil
}

// PackedVarintsOK reports whether b is a well-formed packed run of varints,
// as CountPacked would, without counting them, eight bytes at a time: no
// varint may be left open at the end, and one of ten bytes (nine
// continuation bytes) must end with 0 or 1, and none may be longer.
func PackedVarintsOK(b []byte) bool {
	n := len(b)
	if n == 0 {
		return true
	}
	if b[n-1] >= 0x80 {
		return false
	}
	open := 0 // continuation bytes since the last varint ended
	i := 0
	for ; n-i >= 8; i += 8 {
		ends := ^binary.LittleEndian.Uint64(b[i:]) & 0x8080808080808080 // the last byte of each varint
		if ends == 0 {
			if open += 8; open > 9 {
				return false
			}
			continue
		}
		// Only the first varint to end in the word can be long.
		if k := bits.TrailingZeros64(ends) >> 3; open+k >= 9 && (open+k > 9 || b[i+k] > 1) {
			return false
		}
		open = bits.LeadingZeros64(ends) >> 3
	}
	for ; i < n; i++ {
		if b[i] >= 0x80 {
			if open++; open > 9 {
				return false
			}
			continue
		}
		if open == 9 && b[i] > 1 {
			return false
		}
		open = 0
	}
	return true
}
