package transcode

import (
	"encoding/base64"
	"encoding/binary"
	"math"
	"math/bits"
	"slices"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// scalar prints the value of record r of a scalar field f.
func (e *encoder) scalar(f *fieldPlan, r *rec) error {
	out, err := e.appendScalar(e.out, f, r)
	if err == nil {
		e.set(out)
	}
	return err
}

// appendScalar is scalar on out; on error out is as it was.
func (e *encoder) appendScalar(out []byte, f *fieldPlan, r *rec) ([]byte, error) {
	switch f.kind {
	case protoreflect.StringKind:
		res, ok := appendStr(out, e.b[r.start:r.end])
		if !ok {
			return out, e.fieldErr(int(r.start), f, "invalid UTF-8")
		}
		return res, nil
	case protoreflect.BytesKind:
		return appendBase64(out, e.b[r.start:r.end]), nil
	}
	return e.appendBits(out, f, e.bitsOf(r)), nil
}

// bits prints a numeric, boolean or enum value of f from its wire bits.
func (e *encoder) bits(f *fieldPlan, v uint64) { e.set(e.appendBits(e.out, f, v)) }

// appendBits is bits on out.
func (e *encoder) appendBits(out []byte, f *fieldPlan, v uint64) []byte {
	switch f.kind {
	case protoreflect.Int32Kind, protoreflect.Sfixed32Kind:
		out = appendInt(out, int64(int32(v)))
	case protoreflect.Sint32Kind:
		out = appendInt(out, int64(int32(protowire.DecodeZigZag(v&math.MaxUint32))))
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		out = appendUint(out, uint64(uint32(v)))
	case protoreflect.Int64Kind, protoreflect.Sfixed64Kind:
		out = append(appendInt(append(out, '"'), int64(v)), '"')
	case protoreflect.Sint64Kind:
		out = append(appendInt(append(out, '"'), protowire.DecodeZigZag(v)), '"')
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		out = append(appendUint(append(out, '"'), v), '"')
	case protoreflect.BoolKind:
		if v != 0 {
			out = append(out, "true"...)
		} else {
			out = append(out, "false"...)
		}
	case protoreflect.FloatKind:
		out = appendFloat(out, float64(math.Float32frombits(uint32(v))), 32)
	case protoreflect.DoubleKind:
		out = appendFloat(out, math.Float64frombits(v), 64)
	case protoreflect.EnumKind:
		out = e.appendEnum(out, f, protoreflect.EnumNumber(int32(v)))
	}
	return out
}

// appendEnum prints an enum value by name, or by number when asked or when
// the enum has no such value; NullValue is always null.
func (e *encoder) appendEnum(out []byte, f *fieldPlan, n protoreflect.EnumNumber) []byte {
	if f.isNull {
		return append(out, "null"...)
	}
	if !e.enumNums {
		if q := f.enum.quoted(n); q != nil {
			return append(out, q...)
		}
	}
	return appendInt(out, int64(n))
}

// zero prints the zero value of an absent scalar without presence, or of
// a map's absent value (an enum there starts at 0, even a proto2 one).
func (e *encoder) zero(f *fieldPlan) { e.set(e.appendZero(e.out, f)) }

// appendZero is zero on out.
func (e *encoder) appendZero(out []byte, f *fieldPlan) []byte {
	if f.kind == protoreflect.StringKind || f.kind == protoreflect.BytesKind {
		return append(out, `""`...)
	}
	return e.appendBits(out, f, 0)
}

// bytes prints b as standard base64 with padding, in quotes: six bytes
// at a time to eight characters (four pairs from base64Pairs) stored as
// one word, then three at a time to four, then the last one or two bytes
// with their padding.
func (e *encoder) bytes(b []byte) { e.set(appendBase64(e.out, b)) }

// appendBase64 is bytes on out.
func appendBase64(out, b []byte) []byte {
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

// digitPairs holds "00" to "99".
const digitPairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

// appendUint appends v in decimal.
func appendUint(out []byte, v uint64) []byte { return appendDigits(out, v, false) }

// appendDigits appends v in decimal, after a minus sign when neg, straight
// into out: below 10^8 all eight digits at once (digits8) in one word, below
// 10^16 the digits of v/10^8 and the eight of v%10^8 in two, either of
// which may change up to seven bytes of out's capacity past the text; above
// that two digits at a time from the last.
func appendDigits(out []byte, v uint64, neg bool) []byte {
	if v < 10 && !neg {
		return append(out, byte('0'+v))
	}
	if v < 1e16 {
		l := len(out)
		out = slices.Grow(out, 17)
		b := out[l : l+17]
		if neg {
			b[0] = '-'
			b = b[1:]
			l++
		}
		if v < 1e8 {
			n := decimalLen(v)
			binary.LittleEndian.PutUint64(b, lastDigits(uint32(v), n))
			return out[:l+n]
		}
		hi, lo := uint32(v/1e8), uint32(v%1e8)
		n := decimalLen(uint64(hi))
		binary.LittleEndian.PutUint64(b, lastDigits(hi, n))
		binary.LittleEndian.PutUint64(b[n:], lastDigits(lo, 8))
		return out[:l+n+8]
	}
	n := decimalLen(v)
	if neg {
		n++
	}
	l := len(out)
	out = slices.Grow(out, n)[:l+n]
	b := out[l:]
	b[0] = '-' // overwritten by the first digit when not neg
	i := n
	for v >= 100 {
		q := v / 100
		d := (v - q*100) * 2
		i -= 2
		b[i], b[i+1] = digitPairs[d], digitPairs[d+1]
		v = q
	}
	if v >= 10 {
		b[i-2], b[i-1] = digitPairs[v*2], digitPairs[v*2+1]
	} else {
		b[i-1] = byte('0' + v)
	}
	return out
}

// digits8 returns the eight decimal digits of v < 10^8, the first in the
// low byte, each a number from 0 to 9: the halves v/10^4 and v%10^4 in the
// two 32-bit lanes of a word, each split into two lanes of two digits and
// those into one lane per digit, all lanes at once (x·10486>>20 is x/100
// for x < 43699, x·103>>10 is x/10 for x < 179).
func digits8(v uint32) uint64 {
	x := uint64(v/10000) | uint64(v%10000)<<32
	q := (x * 10486 >> 20) & 0x0000007f0000007f
	x = q | (x-q*100)<<16
	q = (x * 103 >> 10) & 0x000f000f000f000f
	return q | (x-q*10)<<8
}

// lastDigits returns the last n of the eight digits of v < 10^8 as text,
// the first in the low byte, the bytes past them zero.
func lastDigits(v uint32, n int) uint64 {
	return (digits8(v) | 0x3030303030303030) >> (64 - 8*n)
}

// decimalLen returns the number of decimal digits of v.
func decimalLen(v uint64) int {
	n := (bits.Len64(v) * 1233) >> 12 // about log10(v+1), possibly one short
	if n < len(powers10) && v >= powers10[n] {
		n++
	}
	return max(n, 1)
}

// powers10[i] is 10^i.
var powers10 = [...]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19}

// appendInt appends v in decimal.
func appendInt(out []byte, v int64) []byte {
	u := uint64(v)
	if v < 0 {
		u = -u
	}
	return appendDigits(out, u, v < 0)
}
