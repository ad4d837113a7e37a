package jsonx

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// referenceFloat is protojson's float formatting: strconv, 'e' form outside
// 1e-6..1e21, exponent "e-07" shortened to "e-7".
func referenceFloat(f float64, bitSize int) string {
	switch {
	case math.IsNaN(f):
		return `"NaN"`
	case math.IsInf(f, 1):
		return `"Infinity"`
	case math.IsInf(f, -1):
		return `"-Infinity"`
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 {
		if bitSize == 64 && (abs < 1e-6 || abs >= 1e21) || bitSize == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	out := strconv.AppendFloat(nil, f, format, -1, bitSize)
	if n := len(out); format == 'e' && n >= 4 && out[n-4] == 'e' && out[n-3] == '-' && out[n-2] == '0' {
		out[n-2] = out[n-1]
		out = out[:n-1]
	}
	return string(out)
}

// floatSamples yields doubles of every shape: short decimals (the fast
// path), their neighbours one ulp away, random bits, powers and boundaries.
func floatSamples(r *rand.Rand, n int, yield func(float64)) {
	for _, f := range specialFloatCases {
		yield(f)
		yield(-f)
		yield(math.Nextafter(f, math.Inf(1)))
		yield(math.Nextafter(f, math.Inf(-1)))
	}
	for range n {
		digits := r.IntN(17) + 1
		m := r.Int64N(int64(math.Pow10(digits)))
		k := r.IntN(23)
		f := float64(m) / math.Pow10(k)
		yield(f)
		yield(math.Nextafter(f, 0))
		yield(math.Nextafter(f, math.Inf(1)))
		yield(math.Float64frombits(r.Uint64()))
		yield(float64(r.Int64N(1<<53)) * math.Pow(2, float64(r.IntN(120)-60)))
	}
}

var specialFloatCases = []float64{
	0, 1, 0.1, 0.2, 0.3, 0.5, 1e-6, 1e-7, 9.999999e-7, 1e21, 1e20, 1 << 50, 1<<50 - 1, 1 << 53,
	98.6, 47.3869, 8.5317, 0.8125, 123456789012345, 1125899906842623.5, 4503599627370495.5,
	math.MaxFloat64, math.SmallestNonzeroFloat64, math.MaxFloat32, math.SmallestNonzeroFloat32, 5e-324,
	0.1 + 0.2, 1.0 / 3, 2.0 / 3, 100, 1e15, 1e16, 9007199254740993, 0.000001, 0.0000015,
}

func TestFloatFormatMatchesProtojson(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 0
	floatSamples(r, 200000, func(f float64) {
		n++
		if got, want := string(AppendFloat(nil, f, 64)), referenceFloat(f, 64); got != want {
			t.Fatalf("double %v (%#x): got %s, want %s", f, math.Float64bits(f), got, want)
		}
		f32 := float64(float32(f))
		if got, want := string(AppendFloat(nil, f32, 32)), referenceFloat(f32, 32); got != want {
			t.Fatalf("float %v (%#x): got %s, want %s", f32, math.Float32bits(float32(f)), got, want)
		}
	})
	for range 200000 {
		f := float64(math.Float32frombits(r.Uint32()))
		if got, want := string(AppendFloat(nil, f, 32)), referenceFloat(f, 32); got != want {
			t.Fatalf("float %v: got %s, want %s", f, got, want)
		}
	}
	// every float32 with a short decimal form: m/10^k for small m and k
	for k := 0; k <= 10; k++ {
		for m := 0; m < 100000; m += 1 + m/1000 {
			f := float64(float32(float64(m) / math.Pow10(k)))
			if got, want := string(AppendFloat(nil, f, 32)), referenceFloat(f, 32); got != want {
				t.Fatalf("float %v: got %s, want %s", f, got, want)
			}
		}
	}
	t.Logf("%d doubles", n)
}

// TestShortest64 checks the digits of shortest64 against strconv's on
// every shape of double in its range, where it must never fall back.
func TestShortest64(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	n := 0
	check := func(f float64) {
		a := math.Abs(f)
		if !(a >= 1e-6 && a < 1e21) {
			return
		}
		n++
		// the shortest decimal of a, as strconv finds it
		mant, exp, _ := strings.Cut(strconv.FormatFloat(a, 'e', -1, 64), "e")
		e, _ := strconv.Atoi(exp)
		mant = strings.Replace(mant, ".", "", 1)
		wantM, _ := strconv.ParseUint(mant, 10, 64)
		wantE := e - (len(mant) - 1)
		gotM, gotE, ok := shortest64(a)
		for ok && gotM != 0 && gotM%10 == 0 {
			gotM, gotE = gotM/10, gotE+1
		}
		if !ok || gotM != wantM || gotE != wantE {
			t.Fatalf("shortest64(%v) = %d·10^%d, %v; want %d·10^%d", a, gotM, gotE, ok, wantM, wantE)
		}
	}
	floatSamples(r, 300000, check)
	for range 1000000 {
		// random bits in range, and the powers of two, whose interval is uneven
		check(math.Float64frombits(r.Uint64N(math.Float64bits(1e21)-math.Float64bits(1e-6)) + math.Float64bits(1e-6)))
	}
	for e := -20; e <= 70; e++ {
		p := math.Ldexp(1, e)
		check(p)
		check(math.Nextafter(p, 0))
		check(math.Nextafter(p, math.Inf(1)))
	}
	for _, f := range []float64{1e-6, math.Nextafter(1e-6, 1), math.Nextafter(1e21, 0), 1 << 53, 1<<53 + 2, 1 << 52, 1<<52 + 1, 0.5, 1.5, 4503599627370495.5} {
		check(f)
	}
	t.Logf("%d doubles", n)
}

// TestShortDecimalTaken holds shortDecimal64 to its fast path: every double
// whose shortest decimal has at most 14 digits, from 1e-6 on, takes it and
// yields those digits (the tests above check only the text, which
// shortest64 would also get right).
func TestShortDecimalTaken(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 300000 {
		m := uint64(r.Int64N(int64(math.Pow10(r.IntN(14) + 1))))
		k := r.IntN(26) - 3 // below 0: an integer with zeros at the end
		for m > 0 && m%10 == 0 {
			m /= 10
		}
		f := float64(m) / math.Pow10(k)
		if k < 0 {
			f = float64(m) * math.Pow10(-k)
		}
		if f < 1e-6 || f >= 1<<50 {
			continue
		}
		// the shortest decimal of f, as strconv finds it
		digits := strconv.FormatFloat(f, 'e', -1, 64)
		mant, exp, _ := strings.Cut(digits, "e")
		e, _ := strconv.Atoi(exp)
		mant = strings.Replace(mant, ".", "", 1)
		wantM, _ := strconv.ParseUint(mant, 10, 64)
		wantK := len(mant) - 1 - e
		for wantK < 0 {
			wantM, wantK = wantM*10, wantK+1
		}
		gotM, gotK, ok := shortDecimal64(f)
		if !ok || gotM != wantM || gotK != wantK {
			t.Fatalf("shortDecimal64(%v) = %d, %d, %v; want %d, %d, true", f, gotM, gotK, ok, wantM, wantK)
		}
	}
}

// FuzzFloat holds AppendFloat to protojson's formatting on any bits, as a
// double and as a float.
func FuzzFloat(f *testing.F) {
	for _, v := range specialFloatCases {
		f.Add(math.Float64bits(v))
	}
	f.Fuzz(func(t *testing.T, u uint64) {
		v := math.Float64frombits(u)
		if got, want := string(AppendFloat(nil, v, 64)), referenceFloat(v, 64); got != want {
			t.Fatalf("double %v (%#x): got %s, want %s", v, u, got, want)
		}
		v = float64(math.Float32frombits(uint32(u)))
		if got, want := string(AppendFloat(nil, v, 32)), referenceFloat(v, 32); got != want {
			t.Fatalf("float %v (%#x): got %s, want %s", v, uint32(u), got, want)
		}
	})
}

// TestDigits8 checks digits8 on every 97th number below 10^8 and on the
// edges of each digit count.
func TestDigits8(t *testing.T) {
	check := func(v uint32) {
		w := digits8(v)
		var got [8]byte
		for i := range got {
			got[i] = '0' + byte(w>>(8*i))
		}
		if want := fmt.Sprintf("%08d", v); string(got[:]) != want {
			t.Fatalf("digits8(%d) = %q, want %q", v, got, want)
		}
	}
	for v := uint32(0); v < 1e8; v += 97 {
		check(v)
	}
	for p := uint32(1); p < 1e8; p *= 10 {
		check(p - 1)
		check(p)
		check(p + 1)
	}
	check(1e8 - 1)
}

// TestNumbersStayNear holds the number printers to what MarshalAppend
// promises: past the text they append they change at most 16 bytes of
// out's capacity.
func TestNumbersStayNear(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	buf := make([]byte, 64)
	check := func(what string, print func([]byte) []byte) {
		for i := range buf {
			buf[i] = 0xaa
		}
		out := print(buf[:3:64])
		if &out[0] != &buf[0] {
			t.Fatalf("%s: reallocated a buffer with room", what)
		}
		for i := len(out) + 16; i < len(buf); i++ {
			if buf[i] != 0xaa {
				t.Fatalf("%s: %s changed byte %d, %d past the text", what, out[3:], i, i-len(out))
			}
		}
	}
	floatSamples(r, 20000, func(f float64) {
		check(fmt.Sprint(f), func(b []byte) []byte { return AppendFloat(b, f, 64) })
		v := int64(math.Float64bits(f)) >> r.IntN(64)
		check(fmt.Sprint(v), func(b []byte) []byte { return AppendInt(b, v) })
	})
}

// TestPow10Inv computes shortest64's table of powers of ten anew.
func TestPow10Inv(t *testing.T) {
	mask := new(big.Int).SetUint64(1<<63 - 1)
	for i, g := range pow10Inv {
		k := i + pow10InvMin
		// 10^-k = β·2^r with 2^125 <= β < 2^126; want floor(β)+1
		var beta big.Int
		if k <= 0 {
			p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-k)), nil)
			if r := p.BitLen() - 126; r < 0 {
				beta.Lsh(p, uint(-r))
			} else {
				beta.Rsh(p, uint(r))
			}
		} else {
			d := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil)
			beta.Quo(new(big.Int).Lsh(big.NewInt(1), uint(d.BitLen()+125)), d)
		}
		beta.Add(&beta, big.NewInt(1))
		if beta.BitLen() != 126 {
			t.Fatalf("k=%d: β+1 has %d bits", k, beta.BitLen())
		}
		hi, lo := new(big.Int).Rsh(&beta, 63).Uint64(), new(big.Int).And(&beta, mask).Uint64()
		if g != [2]uint64{hi, lo} {
			t.Errorf("pow10Inv for k=%d is %#x, want {%#x, %#x}", k, g, hi, lo)
		}
	}
}

func TestFloat32Strided(t *testing.T) {
	for u := uint64(0); u < 1<<32; u += 4099 {
		f := float64(math.Float32frombits(uint32(u)))
		if got, want := string(AppendFloat(nil, f, 32)), referenceFloat(f, 32); got != want {
			t.Fatalf("float %v (%#x): got %s, want %s", f, u, got, want)
		}
	}
}

func BenchmarkFloat(b *testing.B) {
	for _, f := range []float64{98.6, 47.3869, 0.8125, 1234567.891, math.Pi} {
		b.Run(strconv.FormatFloat(f, 'g', -1, 64), func(b *testing.B) {
			buf := make([]byte, 0, 64)
			for b.Loop() {
				buf = AppendFloat(buf[:0], f, 64)
			}
		})
		b.Run("strconv-"+strconv.FormatFloat(f, 'g', -1, 64), func(b *testing.B) {
			buf := make([]byte, 0, 64)
			for b.Loop() {
				buf = strconv.AppendFloat(buf[:0], f, 'f', -1, 64)
			}
		})
	}
}

func TestIntFormat(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	vals := []int64{0, 1, 9, 10, 99, 100, 101, 999, 1000, math.MaxInt64, math.MinInt64, -1, -10, math.MaxInt32, math.MinInt32}
	for range 100000 {
		vals = append(vals, int64(r.Uint64())>>r.IntN(64))
	}
	for _, v := range vals {
		if got, want := string(AppendInt(nil, v)), strconv.FormatInt(v, 10); got != want {
			t.Fatalf("AppendInt(%d) = %s", v, got)
		}
		if got, want := string(AppendInt([]byte(`"k":`), v)), `"k":`+strconv.FormatInt(v, 10); got != want {
			t.Fatalf("AppendInt(%d) after a key = %s", v, got)
		}
		if got, want := string(AppendUint(nil, uint64(v))), strconv.FormatUint(uint64(v), 10); got != want {
			t.Fatalf("AppendUint(%d) = %s", uint64(v), got)
		}
	}
}
