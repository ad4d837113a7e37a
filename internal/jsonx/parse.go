package jsonx

import (
	"math"
	"strconv"
	"unsafe"
)

// ParseInt converts the text of a JSON number to an integer of the
// given size; the fast path takes plain digits, the rest goes the way of
// protojson (normalise the exponent away, then strconv).
func ParseInt(b []byte, bits int, unsigned bool) (uint64, bool) {
	i, neg := 0, b[0] == '-'
	if neg {
		i = 1
	}
	var v uint64
	j := i
	for ; j < len(b) && j-i < 19; j++ {
		c := b[j] - '0'
		if c > 9 {
			break
		}
		v = v*10 + uint64(c)
	}
	if j < len(b) {
		return parseIntegerSlow(b, bits, unsigned)
	}
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
	str := unsafe.String(unsafe.SliceData(s), len(s))
	if unsigned {
		v, err := strconv.ParseUint(str, 10, bits)
		return v, err == nil
	}
	v, err := strconv.ParseInt(str, 10, bits)
	return uint64(v), err == nil
}

// integerDigits appends the integer b denotes in plain digits, with its
// sign, to dst; false if b is not an integer or has too many digits.
func integerDigits(dst, b []byte) ([]byte, bool) {
	neg := b[0] == '-'
	if neg {
		b = b[1:]
	}
	var intp, frac, exp []byte
	i := 0
	if b[0] != '0' {
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
		intp = b[:i]
	} else {
		i = 1
	}
	if i < len(b) && b[i] == '.' {
		j := i + 1
		for j < len(b) && '0' <= b[j] && b[j] <= '9' {
			j++
		}
		frac, i = b[i+1:j], j
	}
	for len(frac) > 0 && frac[len(frac)-1] == '0' {
		frac = frac[:len(frac)-1]
	}
	if i < len(b) {
		exp = b[i+1:]
	}
	if len(intp) == 0 && len(frac) == 0 {
		return append(dst, '0'), true
	}
	e := 0
	if len(exp) > 0 {
		x, err := strconv.ParseInt(unsafe.String(unsafe.SliceData(exp), len(exp)), 10, 32)
		if err != nil {
			return nil, false
		}
		e = int(x)
	}
	if neg {
		dst = append(dst, '-')
	}
	if e >= 0 {
		if len(frac) > e || len(intp)+e > 20 {
			return nil, false
		}
		dst = append(append(dst, intp...), frac...)
		for range e - len(frac) {
			dst = append(dst, '0')
		}
		return dst, true
	}
	if len(frac) > 0 {
		return nil, false
	}
	at := len(intp) + e
	if at < 0 {
		return nil, false
	}
	for _, c := range intp[at:] {
		if c != '0' {
			return nil, false
		}
	}
	if at > 20 {
		return nil, false
	}
	return append(dst, intp[:at]...), true
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
	v, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(b), len(b)), bits)
	return v, err == nil
}

// ExactFloat64 converts the common JSON numbers whose value is one IEEE
// operation on exact operands, a mantissa below 2^53 times or divided by a
// power of ten up to 10^22, which is correctly rounded and so the value
// strconv.ParseFloat returns; false for the rest. b is a valid JSON number.
func ExactFloat64(b []byte) (float64, bool) {
	i, neg := 0, b[0] == '-'
	if neg {
		i++
	}
	var m uint64
	digits, exp, dot := 0, 0, false
	for ; i < len(b); i++ {
		c := b[i]
		if c == '.' {
			dot = true
			continue
		}
		if c < '0' || c > '9' {
			return 0, false // an exponent
		}
		if digits > 0 || c != '0' {
			if digits++; digits > 19 {
				return 0, false
			}
		}
		m = m*10 + uint64(c-'0')
		if dot {
			exp--
		}
	}
	if m>>53 != 0 || exp < -22 {
		return 0, false
	}
	f := float64(m)
	if neg {
		f = -f
	}
	return f / ExactPow10(-exp), true
}
