package jsonx

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// digitPairs holds "00" to "99".
const digitPairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

// AppendUint appends v in decimal.
func AppendUint(out []byte, v uint64) []byte { return appendDigits(out, v, false) }

// AppendInt appends v in decimal.
func AppendInt(out []byte, v int64) []byte {
	u := uint64(v)
	if v < 0 {
		u = -u
	}
	return appendDigits(out, u, v < 0)
}

// appendDigits appends v in decimal, after a minus sign when neg, straight
// into out: below 10^8 all eight digits at once (digits8) in one word, below
// 10^16 the digits of v/10^8 and the eight of v%10^8 in two, either of
// which may change up to seven bytes of out's capacity past the text; above
// that two digits at a time from the last (appendDigitsLong).
func appendDigits(out []byte, v uint64, neg bool) []byte {
	if v < 10 && !neg {
		return append(out, byte('0'+v))
	}
	if v >= 1e16 {
		return appendDigitsLong(out, v, neg)
	}
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

// appendDigitsLong is appendDigits for v from 10^16 on.
func appendDigitsLong(out []byte, v uint64, neg bool) []byte {
	if neg {
		out = append(out, '-')
	}
	n := decimalLen(v)
	l := len(out)
	out = slices.Grow(out, n)[:l+n]
	putDigits(out[l:], v)
	return out
}

// putDigits writes the last len(b) decimal digits of m into b, two at a
// time from the last, and returns m without them.
func putDigits(b []byte, m uint64) uint64 {
	i := len(b)
	for ; i >= 2; i -= 2 {
		q := m / 100
		d := (m - q*100) * 2
		b[i-2], b[i-1] = digitPairs[d], digitPairs[d+1]
		m = q
	}
	if i == 1 {
		b[0] = byte('0' + m%10)
		m /= 10
	}
	return m
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
