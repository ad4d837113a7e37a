package jsonx

import (
	"bytes"
	"math"
	"strconv"
	"unsafe"
)

// ParseInt converts the text of a JSON number to an integer of the
// given size; the fast path takes plain digits, the rest goes the way of
// protojson (normalise the exponent away, then strconv).
func ParseInt(b []byte, bits int, unsigned bool) (uint64, bool) {
	neg := b[0] == '-'
	v, j := leadingDigits(b, b2i(neg))
	if j < len(b) {
		return parseIntegerSlow(b, bits, unsigned)
	}
	return fitInt(v, neg, bits, unsigned)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// leadingDigits returns the value of the decimal digits at b[i:], up to
// 19 of them, and where they end.
func leadingDigits(b []byte, i int) (uint64, int) {
	var v uint64
	j := i
	for ; j < len(b) && j-i < 19; j++ {
		c := b[j] - '0'
		if c > 9 {
			break
		}
		v = v*10 + uint64(c)
	}
	return v, j
}

// fitInt returns the integer of the given size whose magnitude is v, false
// if it is out of range.
func fitInt(v uint64, neg bool, bits int, unsigned bool) (uint64, bool) {
	switch {
	case unsigned:
		if neg && v != 0 || bits == 32 && v > math.MaxUint32 {
			return 0, false
		}
		return v, true
	case neg:
		if v > 1<<(bits-1) {
			return 0, false
		}
		return uint64(-int64(v)), true
	}
	return v, v <= 1<<(bits-1)-1
}

// parseIntegerSlow is protojson's conversion: the number is rewritten as
// plain digits (when integral and at most 20 digits), then parsed.
func parseIntegerSlow(b []byte, bits int, unsigned bool) (uint64, bool) {
	var buf [24]byte
	s, ok := integerDigits(buf[:0], b)
	if !ok {
		return 0, false
	}
	if unsigned {
		v, err := strconv.ParseUint(bytesString(s), 10, bits)
		return v, err == nil
	}
	v, err := strconv.ParseInt(bytesString(s), 10, bits)
	return uint64(v), err == nil
}

// bytesString returns b as a string without copying; b must not change
// while the string is in use.
func bytesString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// integerDigits appends the integer b denotes in plain digits, with its
// sign, to dst; false if b is not an integer or has too many digits.
func integerDigits(dst, b []byte) ([]byte, bool) {
	neg := b[0] == '-'
	p := splitNumber(b[b2i(neg):])
	if len(p.intp) == 0 && len(p.frac) == 0 {
		return append(dst, '0'), true
	}
	e, ok := exponentValue(p.exp)
	if !ok {
		return nil, false
	}
	if neg {
		dst = append(dst, '-')
	}
	if e >= 0 {
		return appendShiftedUp(dst, p, e)
	}
	return appendShiftedDown(dst, p, e)
}

// numberParts are the parts of the text of a number without its sign: the
// integer digits (none for a lone zero), the fraction digits less their
// trailing zeros, and the text of the exponent after the 'e'.
type numberParts struct{ intp, frac, exp []byte }

// splitNumber splits b, a JSON number without its sign, into its parts.
func splitNumber(b []byte) (p numberParts) {
	i := 1 // past a lone zero
	if b[0] != '0' {
		i = digitsEnd(b, 0)
		p.intp = b[:i]
	}
	if i < len(b) && b[i] == '.' {
		j := digitsEnd(b, i+1)
		p.frac, i = bytes.TrimRight(b[i+1:j], "0"), j
	}
	if i < len(b) {
		p.exp = b[i+1:]
	}
	return p
}

// exponentValue returns the value of an exponent's text, 0 for none.
func exponentValue(exp []byte) (int, bool) {
	if len(exp) == 0 {
		return 0, true
	}
	x, err := strconv.ParseInt(bytesString(exp), 10, 32)
	return int(x), err == nil
}

// appendShiftedUp appends the digits of p times 10^e, e >= 0.
func appendShiftedUp(dst []byte, p numberParts, e int) ([]byte, bool) {
	if len(p.frac) > e || len(p.intp)+e > 20 {
		return nil, false
	}
	dst = append(append(dst, p.intp...), p.frac...)
	for range e - len(p.frac) {
		dst = append(dst, '0')
	}
	return dst, true
}

// appendShiftedDown appends the digits of p times 10^e, e < 0.
func appendShiftedDown(dst []byte, p numberParts, e int) ([]byte, bool) {
	at := len(p.intp) + e
	if len(p.frac) > 0 || at < 0 || at > 20 || len(bytes.TrimLeft(p.intp[at:], "0")) > 0 {
		return nil, false
	}
	return append(dst, p.intp[:at]...), true
}

// ExactPow10 returns 10^n for 0 <= n <= 22, the powers a double holds
// exactly: pow10, a variable (a literal table here was copied to the stack
// on every call).
func ExactPow10(n int) float64 { return pow10[n] }

var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// ParseFloat converts the text of a JSON number to a float of the given
// size; false when out of its range.
func ParseFloat(b []byte, bits int) (float64, bool) {
	if bits == 64 {
		if v, ok := ExactFloat64(b); ok {
			return v, true
		}
	}
	v, err := strconv.ParseFloat(bytesString(b), bits)
	return v, err == nil
}

// ExactFloat64 converts the common JSON numbers whose value is one IEEE
// operation on exact operands, a mantissa below 2^53 times or divided by a
// power of ten up to 10^22, which is correctly rounded and so the value
// strconv.ParseFloat returns; false for the rest. b is a valid JSON number.
func ExactFloat64(b []byte) (float64, bool) {
	neg := b[0] == '-'
	m, exp, ok := decimalMantissa(b[b2i(neg):])
	if !ok || m>>53 != 0 || exp < -22 {
		return 0, false
	}
	f := float64(m)
	if neg {
		f = -f
	}
	return f / ExactPow10(-exp), true
}

// decimalMantissa returns the digits of b, a number without sign or
// exponent, as an integer m and b's value as m·10^exp; false for an
// exponent or more than 19 digits.
func decimalMantissa(b []byte) (m uint64, exp int, ok bool) {
	digits, dot := 0, false
	for _, c := range b {
		if c == '.' {
			dot = true
			continue
		}
		if c < '0' || c > '9' {
			return 0, 0, false // an exponent
		}
		if digits > 0 || c != '0' {
			if digits++; digits > 19 {
				return 0, 0, false
			}
		}
		m = m*10 + uint64(c-'0')
		if dot {
			exp--
		}
	}
	return m, exp, true
}
