package jsonx

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"strconv"
)

// AppendFloat formats a float as protojson does: the special values as
// strings, the shortest decimal that parses back to the same value at the
// given bit size, in exponent form below 1e-6 and from 1e21 on, with a
// one-digit negative exponent where it fits.
func AppendFloat(out []byte, f float64, bitSize int) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return appendSpecial(out, f)
	}
	if bitSize == 64 {
		if m, k, ok := shortDecimal64(f); ok {
			return appendDecimal(out, f, m, k)
		}
		if m, e, ok := shortest64(math.Abs(f)); ok {
			return appendShortest(out, f, m, e)
		}
	} else if m, k, ok := shortDecimal32(float32(f)); ok {
		return appendDecimal(out, f, m, k)
	}
	if !exponentForm(f, bitSize) {
		return strconv.AppendFloat(out, f, 'f', -1, bitSize)
	}
	out = strconv.AppendFloat(out, f, 'e', -1, bitSize)
	if n := len(out); n >= 4 && out[n-4] == 'e' && out[n-3] == '-' && out[n-2] == '0' {
		out[n-2] = out[n-1] // e-07 to e-7
		out = out[:n-1]
	}
	return out
}

// appendSpecial appends NaN or an infinity as the string protojson prints.
func appendSpecial(out []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(out, `"NaN"`...)
	case f > 0:
		return append(out, `"Infinity"`...)
	}
	return append(out, `"-Infinity"`...)
}

// exponentForm reports whether protojson prints f, not zero, with an
// exponent: below 1e-6 or from 1e21 on, at the given bit size.
func exponentForm(f float64, bitSize int) bool {
	abs := math.Abs(f)
	if abs == 0 {
		return false
	}
	if a := float32(abs); bitSize == 32 {
		return a < 1e-6 || a >= 1e21
	}
	return abs < 1e-6 || abs >= 1e21
}

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
// When the check fails f needs more digits, and shortest64 takes over.
func shortDecimal64(f float64) (m uint64, k int, ok bool) {
	a := math.Abs(f)
	if a < 1e-6 || a >= 1<<50 {
		return 0, 0, false
	}
	k = scale50(a)
	// p rounded to an integer, ties to even: adding 2^52 leaves no bits
	// below the point (the conversion keeps p a rounded product, not fused
	// into the addition).
	r := float64(a*pow10[k]) + 1<<52 - 1<<52
	if r/pow10[k] != a {
		return 0, 0, false
	}
	m, k = trimZeros(uint64(r), k)
	return m, k, true
}

// scale50 returns the largest k <= 22 with a·10^k below 2^50.
func scale50(a float64) int {
	exp2 := int(math.Float64bits(a)>>52&0x7ff) - 1023 // a < 2^(exp2+1)
	k := min((49-exp2)*1233>>12, len(pow10)-1)        // 10^k <= 2^(49-exp2)
	for a*pow10[k] >= 1<<50 {
		k--
	}
	return k
}

// trimZeros drops the trailing zeros of m·10^-k after the point: up to k
// of m's, eight, four, two and one at a time.
func trimZeros(m uint64, k int) (uint64, int) {
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
	return m, k
}

// shortest64 returns the shortest decimal m·10^e that parses back to a,
// a double from 1e-6 to below 1e21, and of those the closest to a (the
// even one on a tie): the digits strconv prints for it. ok is false for a
// outside that range, for which protojson prints an exponent.
//
// It is Schubfach (R. Giulietti, "The Schubfach way to render doubles"):
// with a = c·2^q, the algorithm scales c and the bounds of the interval of
// reals that round to a by 10^-k, k = floor(log10 2^q), through a 126-bit
// approximation of 10^-k, the few bits it needs of each product rounded to
// odd. The scaled a has 16 or 17 digits; of the decimals of one digit fewer
// and of that many digits next to it, the one the interval holds alone, or
// else the nearer, is the answer, trailing zeros aside.
func shortest64(a float64) (m uint64, e int, ok bool) {
	if !(a >= 1e-6 && a < 1e21) {
		return 0, 0, false
	}
	v := scaleSchubfach(a)
	return v.shortest(), v.k, true
}

// scaled is a double a = c·2^q scaled by 10^-k, with two bits below the
// point: vb for a, vbl and vbr for the bounds of the interval of reals
// that round to a, which is closed when odd is 0.
type scaled struct {
	vb, vbl, vbr, odd uint64
	k                 int
}

// scaleSchubfach scales a, a double from 1e-6 to below 1e21, for shortest64.
func scaleSchubfach(a float64) scaled {
	u := math.Float64bits(a)
	q := int(u>>52) - 1075
	c := u&(1<<52-1) | 1<<52
	cb := c << 2
	cbl, cbr := cb-2, cb+2
	k := q * 661971961083 >> 41 // floor(q·log10 2)
	if c == 1<<52 {
		// a power of two: the interval below a is half as wide
		cbl = cb - 1
		k = (q*661971961083 - 274743187321) >> 41 // floor(log10(3/4·2^q))
	}
	h := q + (-k*913124641741)>>38 + 2 // q + floor(log2 10^-k) + 2
	g := &pow10Inv[k-pow10InvMin]
	return scaled{roundOdd(g, cb<<h), roundOdd(g, cbl<<h), roundOdd(g, cbr<<h), c & 1, k}
}

// shortest returns the digits of the answer of shortest64: of the decimals
// of one digit fewer next to v (s' and s'+1, times 10), then of those of
// v's length, the one the interval holds alone, or else the nearer.
func (v scaled) shortest() uint64 {
	s := v.vb >> 2
	if s >= 100 {
		if m, ok := v.holdsOne(s/10*10, s/10*10+10); ok {
			return m
		}
	}
	t := s + 1
	if m, ok := v.holdsOne(s, t); ok {
		return m
	}
	if d := int64(v.vb - (s+t)<<1); d < 0 || d == 0 && s&1 == 0 {
		return s
	}
	return t
}

// holdsOne returns whichever of s and t the interval holds when it holds
// one of them only.
func (v scaled) holdsOne(s, t uint64) (uint64, bool) {
	u, w := v.vbl+v.odd <= s<<2, t<<2+v.odd <= v.vbr
	if u == w {
		return 0, false
	}
	if u {
		return s, true
	}
	return t, true
}

// roundOdd returns the product of g, 126 bits of 10^-k, and cp, shifted
// to keep its integer part and two bits, rounded to odd.
func roundOdd(g *[2]uint64, cp uint64) uint64 {
	const mask63 = 1<<63 - 1
	x1, _ := bits.Mul64(g[1], cp)
	y1, y0 := bits.Mul64(g[0], cp)
	z := y0>>1 + x1
	sticky := (z&mask63 + mask63) >> 63 // 1 when bits below the result are set
	return (y1 + z>>63) | sticky
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
	k = scale21(a)
	r := float32(math.RoundToEven(float64(a * pow10f32[k])))
	m, k = trimZeros(uint64(r), k)
	if float32(m)/pow10f32[k] != a {
		return 0, 0, false
	}
	return m, k, true
}

// scale21 returns the largest k <= 10 with a·10^k below 2^21, or 0.
func scale21(a float32) int {
	exp2 := int(math.Float32bits(a)>>23&0xff) - 127
	k := max(0, min((20-exp2)*1233>>12, len(pow10f32)-1))
	for k > 0 && a*pow10f32[k] >= 1<<21 {
		k--
	}
	return k
}

// appendShortest prints m·10^e with f's sign as %f does.
func appendShortest(out []byte, f float64, m uint64, e int) []byte {
	if e < 0 {
		m, k := trimZeros(m, -e)
		return appendDecimal(out, f, m, k)
	}
	out = appendDecimal(out, f, m, 0)
	for range e {
		out = append(out, '0')
	}
	return out
}

// appendDecimal prints m·10^-k with f's sign as %f does: the integer part,
// then k fraction digits (the last one not zero), written straight into
// out. Up to eight digits in all come from digits8 and go out as two words
// either side of the point, which may change up to seven bytes of out's
// capacity past the text; more are written from the last, two at a time.
func appendDecimal(out []byte, f float64, m uint64, k int) []byte {
	if math.Signbit(f) {
		out = append(out, '-')
	}
	if k == 0 {
		return AppendUint(out, m)
	}
	digits := max(decimalLen(m), k+1) // with a zero before the point
	if digits <= 8 {
		return appendDecimal8(out, uint32(m), digits, k)
	}
	return appendDecimalLong(out, m, digits, k)
}

// appendDecimal8 prints the last digits of the eight of m with the point
// inserted k from the end, as two words.
func appendDecimal8(out []byte, m uint32, digits, k int) []byte {
	w := lastDigits(m, digits)
	p := digits - k
	l := len(out)
	out = slices.Grow(out, 16)
	b := out[l : l+16]
	binary.LittleEndian.PutUint64(b, w&(1<<(8*p)-1)|'.'<<(8*p))
	binary.LittleEndian.PutUint64(b[p+1:], w>>(8*p))
	return out[:l+digits+1]
}

// appendDecimalLong prints the digits of m with the point inserted k from
// the end, two digits at a time from the last.
func appendDecimalLong(out []byte, m uint64, digits, k int) []byte {
	p := digits - k // before the point
	l := len(out)
	out = slices.Grow(out, digits+1)[:l+digits+1]
	b := out[l:]
	m = putDigits(b[p+1:], m)
	b[p] = '.'
	putDigits(b[:p], m)
	return out
}
