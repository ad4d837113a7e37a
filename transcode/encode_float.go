package transcode

import (
	"math"
	"slices"
	"strconv"
)

// appendFloat formats a float as protojson does: the special values as
// strings, the shortest decimal that parses back to the same value at the
// given bit size, in exponent form below 1e-6 and from 1e21 on, with a
// one-digit negative exponent where it fits.
func appendFloat(out []byte, f float64, bitSize int) []byte {
	switch {
	case math.IsNaN(f):
		return append(out, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(out, `"Infinity"`...)
	case math.IsInf(f, -1):
		return append(out, `"-Infinity"`...)
	}
	if bitSize == 64 {
		if m, k, ok := shortDecimal64(f); ok {
			return appendDecimal(out, f, m, k)
		}
	} else if m, k, ok := shortDecimal32(float32(f)); ok {
		return appendDecimal(out, f, m, k)
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 {
		if bitSize == 64 && (abs < 1e-6 || abs >= 1e21) ||
			bitSize == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	out = strconv.AppendFloat(out, f, format, -1, bitSize)
	if format == 'e' {
		n := len(out)
		if n >= 4 && out[n-4] == 'e' && out[n-3] == '-' && out[n-2] == '0' {
			out[n-2] = out[n-1]
			out = out[:n-1]
		}
	}
	return out
}

var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

var pow10f32 = [...]float32{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10}

// shortDecimal64 finds the shortest decimal m·10^-k that parses to f, for
// the common values with few digits: 1e-6 <= |f| < 2^50 and m below 2^50.
// It scales |f| by the largest power of ten K that keeps p = |f|·10^K
// below 2^50 and rounds p to an integer r:
//
//   - the decimals that parse to f lie within half an ulp of f, and an ulp
//     of f times 10^K is at most p·2^-52, under 1/4; p itself is computed
//     with a relative error of 2^-53. So if f has a shortest decimal m·10^-k
//     with k <= K, r is exactly m·10^(K-k), and m has no trailing zero (or
//     fewer digits would do): stripping r's trailing zeros yields m and k.
//   - r and 10^K (K <= 22) are exact doubles, so r/10^K computed in
//     floating point is the correctly rounded quotient, the value of
//     m·10^-k, which is what parsing that decimal yields: equality with f
//     proves m·10^-k round-trips, and by the above no shorter decimal does.
//     The check is made on r, before the trailing zeros are stripped, so
//     that the two do not wait for each other.
//
// When the check fails f needs more digits, and strconv takes over.
func shortDecimal64(f float64) (m uint64, k int, ok bool) {
	a := math.Abs(f)
	if a < 1e-6 || a >= 1<<50 {
		return 0, 0, false
	}
	exp2 := int(math.Float64bits(a)>>52&0x7ff) - 1023 // a < 2^(exp2+1)
	k = min((49-exp2)*1233>>12, len(pow10)-1)         // 10^k <= 2^(49-exp2)
	for a*pow10[k] >= 1<<50 {
		k--
	}
	// p rounded to an integer, ties to even: adding 2^52 leaves no bits
	// below the point (the conversion keeps p a rounded product, not fused
	// into the addition).
	r := float64(a*pow10[k]) + 1<<52 - 1<<52
	if r/pow10[k] != a {
		return 0, 0, false
	}
	m = uint64(r)
	for k >= 8 && m%1e8 == 0 {
		m, k = m/1e8, k-8
	}
	if k >= 4 && m%1e4 == 0 {
		m, k = m/1e4, k-4
	}
	if k >= 2 && m%100 == 0 {
		m, k = m/100, k-2
	}
	if k >= 1 && m%10 == 0 {
		m, k = m/10, k-1
	}
	return m, k, true
}

// shortDecimal32 is shortDecimal64 in single precision: p below 2^21,
// 10^k exact as a float32 (k <= 10), Go rounding every float32 operation.
func shortDecimal32(f float32) (m uint64, k int, ok bool) {
	a := f
	if a < 0 {
		a = -a
	}
	if a < 1e-6 || a >= 1<<21 {
		return 0, 0, false
	}
	exp2 := int(math.Float32bits(a)>>23&0xff) - 127
	k = max(0, min((20-exp2)*1233>>12, len(pow10f32)-1))
	for k > 0 && a*pow10f32[k] >= 1<<21 {
		k--
	}
	r := float32(math.RoundToEven(float64(a * pow10f32[k])))
	m = uint64(r)
	for k > 0 && m%10 == 0 {
		m, k = m/10, k-1
	}
	if float32(m)/pow10f32[k] != a {
		return 0, 0, false
	}
	return m, k, true
}

// appendDecimal prints m·10^-k with f's sign as %f does: the integer part,
// then k fraction digits (the last one not zero), written straight into
// out from the last digit, two at a time.
func appendDecimal(out []byte, f float64, m uint64, k int) []byte {
	if math.Signbit(f) {
		out = append(out, '-')
	}
	if k == 0 {
		return appendUint(out, m)
	}
	n := max(decimalLen(m), k+1) + 1 // digits, with a zero before the point, and the point
	l := len(out)
	out = slices.Grow(out, n)[:l+n]
	b := out[l:]
	i := n
	for ; k >= 2; k -= 2 {
		q := m / 100
		d := (m - q*100) * 2
		i -= 2
		b[i], b[i+1] = digitPairs[d], digitPairs[d+1]
		m = q
	}
	if k == 1 {
		i--
		b[i] = byte('0' + m%10)
		m /= 10
	}
	i--
	b[i] = '.'
	for i > 0 {
		i--
		b[i] = byte('0' + m%10)
		m /= 10
	}
	return out
}
