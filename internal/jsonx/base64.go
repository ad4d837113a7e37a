package jsonx

import (
	"encoding/base64"
	"encoding/binary"
	"slices"
)

// AppendBase64 appends b as standard base64 with padding, in quotes: six
// bytes at a time to eight characters (four pairs from base64Pairs) stored
// as one word, then three at a time to four, then the last one or two bytes
// with their padding.
func AppendBase64(out, b []byte) []byte {
	n := len(out)
	size := base64.StdEncoding.EncodedLen(len(b))
	out = slices.Grow(out, size+2+2)
	out = out[:cap(out)]
	out[n] = '"'
	w := n + 1
	i := 0
	t := &base64Pairs
	for ; len(b)-i >= 8; i += 6 {
		x := binary.BigEndian.Uint64(b[i:])
		y := uint64(t[x>>52]) | uint64(t[x>>40&4095])<<16 | uint64(t[x>>28&4095])<<32 | uint64(t[x>>16&4095])<<48
		binary.LittleEndian.PutUint64(out[w:], y)
		w += 8
	}
	for ; len(b)-i >= 3; i += 3 {
		x := uint32(b[i])<<16 | uint32(b[i+1])<<8 | uint32(b[i+2])
		binary.LittleEndian.PutUint32(out[w:], uint32(t[x>>12])|uint32(t[x&4095])<<16)
		w += 4
	}
	switch len(b) - i { // the last one or two bytes, padded
	case 1:
		x := uint32(b[i]) << 4
		binary.LittleEndian.PutUint32(out[w:], uint32(t[x])|'='<<16|'='<<24)
		w += 4
	case 2:
		x := uint32(b[i])<<16 | uint32(b[i+1])<<8
		binary.LittleEndian.PutUint32(out[w:], uint32(t[x>>12])|uint32(base64Std[x>>6&63])<<16|'='<<24)
		w += 4
	}
	out[w] = '"'
	return out[:w+1]
}

const base64Std = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

// base64Pairs holds the two characters of every 12 bits, the first in the
// low byte.
var base64Pairs = func() (t [4096]uint16) {
	for i := range t {
		t[i] = uint16(base64Std[i>>6]) | uint16(base64Std[i&63])<<8
	}
	return t
}()

// DecodeBase64 is enc.Decode(dst, src), eight characters at a time to six
// bytes (stored as one word while there is room) for the standard
// alphabet, then four at a time, the last quantum padded or not as enc
// says. Quanta decode on their own, so the result is the same; at a
// character outside the alphabet (line breaks, which Decode skips, a bad
// character, padding out of place) it leaves it all to enc.Decode.
func DecodeBase64(enc *base64.Encoding, dst, src []byte) (int, error) {
	if enc != base64.StdEncoding && enc != base64.RawStdEncoding {
		return enc.Decode(dst, src)
	}
	t := &base64Values
	i, n := 0, 0
	for len(src)-i >= 12 {
		q := src[i : i+8]
		a, b, c, e := t[q[0]], t[q[1]], t[q[2]], t[q[3]]
		f, g, h, k := t[q[4]], t[q[5]], t[q[6]], t[q[7]]
		if (a|b|c|e|f|g|h|k)&0xc0 != 0 {
			return enc.Decode(dst, src)
		}
		v := uint64(a)<<58 | uint64(b)<<52 | uint64(c)<<46 | uint64(e)<<40 |
			uint64(f)<<34 | uint64(g)<<28 | uint64(h)<<22 | uint64(k)<<16
		binary.BigEndian.PutUint64(dst[n:], v)
		i, n = i+8, n+6
	}
	padded := enc == base64.StdEncoding
	for i < len(src) {
		q := src[i:min(i+4, len(src))]
		if padded && len(q) == 4 {
			switch {
			case q[3] != '=':
			case q[2] == '=' && i+4 == len(src):
				q = q[:2]
			case q[2] != '=' && i+4 == len(src):
				q = q[:3]
			default:
				return enc.Decode(dst, src)
			}
		} else if padded || len(q) == 1 {
			return enc.Decode(dst, src)
		}
		var v uint32
		for j, c := range q {
			x := t[c]
			if x&0xc0 != 0 {
				return enc.Decode(dst, src)
			}
			v |= uint32(x) << (26 - 6*j)
		}
		switch len(q) {
		case 4:
			dst[n], dst[n+1], dst[n+2] = byte(v>>24), byte(v>>16), byte(v>>8)
			n += 3
		case 3:
			dst[n], dst[n+1] = byte(v>>24), byte(v>>16)
			n += 2
		case 2:
			dst[n] = byte(v >> 24)
			n++
		}
		i += 4
	}
	return n, nil
}

// base64Values maps the characters of the standard base64 alphabet to
// their values, and every other byte to 0xff.
var base64Values = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for i, c := range []byte(base64Std) {
		t[c] = byte(i)
	}
	return t
}()
