package wire

import (
	"encoding/binary"
	"math/bits"
)

// Varint decodes the varint at b[off:]. It returns the value and the offset
// past it, or an error code (and next < 0) when the varint is truncated or
// overlong.
func Varint(b []byte, off int) (v uint64, next int, c Code) {
	if off < len(b) && b[off] < 0x80 {
		return uint64(b[off]), off + 1, 0
	}
	return varintSlow(b, off)
}

// varintSlow decodes a varint of more than one byte. With eight bytes to
// read, a varint of up to eight is decoded without a loop: its end is the
// first byte without the high bit, and its 7-bit groups are packed
// together in three steps.
func varintSlow(b []byte, off int) (uint64, int, Code) {
	if off >= 0 && len(b)-off >= 8 {
		x := binary.LittleEndian.Uint64(b[off:])
		if stop := ^x & 0x8080808080808080; stop != 0 {
			n := bits.TrailingZeros64(stop) + 1 // bits up to the last byte
			x &= ^uint64(0) >> (64 - n)
			x &= 0x7f7f7f7f7f7f7f7f
			x = x&0x007f007f007f007f | x&0x7f007f007f007f00>>1
			x = x&0x00003fff00003fff | x&0x3fff00003fff0000>>2
			x = x&0x000000000fffffff | x&0x0fffffff00000000>>4
			return x, off + n/8, 0
		}
	}
	var v uint64
	for i := 0; i < 10; i++ {
		if off+i >= len(b) {
			return 0, -1, CodeTruncatedVarint
		}
		c := b[off+i]
		if i == 9 && c > 1 {
			return 0, -1, CodeOverflowVarint
		}
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			return v, off + i + 1, 0
		}
	}
	return 0, -1, CodeOverflowVarint
}

// Fixed32 decodes the little-endian 32-bit value at b[off:].
func Fixed32(b []byte, off int) (uint32, int, Code) {
	if off < 0 || len(b)-off < 4 {
		return 0, -1, CodeTruncated
	}
	p := b[off : off+4]
	return uint32(p[0]) | uint32(p[1])<<8 | uint32(p[2])<<16 | uint32(p[3])<<24, off + 4, 0
}

// Fixed64 decodes the little-endian 64-bit value at b[off:].
func Fixed64(b []byte, off int) (uint64, int, Code) {
	if off < 0 || len(b)-off < 8 {
		return 0, -1, CodeTruncated
	}
	p := b[off : off+8]
	return uint64(p[0]) | uint64(p[1])<<8 | uint64(p[2])<<16 | uint64(p[3])<<24 |
		uint64(p[4])<<32 | uint64(p[5])<<40 | uint64(p[6])<<48 | uint64(p[7])<<56, off + 8, 0
}
