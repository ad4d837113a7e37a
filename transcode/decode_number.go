package transcode

import (
	"math"
	"strconv"
	"unsafe"

	"github.com/rpckit/rpckit/dynamic"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Numbers: integers of the ten kinds and floats, as protojson reads them
// (JSON numbers or strings holding one, exponents allowed for integers
// when the value is integral), with one-pass fast paths for the plain
// forms marshallers write.

// intField parses and appends an integer of any of the ten integer kinds.
func (d *decoder) intField(f *dynamic.Field) error {
	k := f.Kind
	bits, unsigned := intForm(k)
	v, err := d.intValue(bits, unsigned, k)
	if err != nil {
		return err
	}
	switch k {
	case protoreflect.Sint32Kind, protoreflect.Sint64Kind:
		d.varint(protowire.EncodeZigZag(int64(v)))
	case protoreflect.Fixed32Kind, protoreflect.Sfixed32Kind:
		d.fixed32(uint32(v))
	case protoreflect.Fixed64Kind, protoreflect.Sfixed64Kind:
		d.fixed64(v)
	default:
		d.varint(v)
	}
	return nil
}

// intForm returns the size and signedness of the integers of kind k.
func intForm(k protoreflect.Kind) (bits int, unsigned bool) {
	switch k {
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return 32, false
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return 32, true
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return 64, true
	}
	return 64, false
}

// intValue parses an integer as protojson does: a JSON number, or a string
// holding exactly one, with an exponent or zero fraction allowed when the
// value is integral. Signed values come back sign-extended.
func (d *decoder) intValue(bits int, unsigned bool, k protoreflect.Kind) (uint64, error) {
	if v, ok := d.plainInt(bits, unsigned); ok {
		return v, nil
	}
	start := d.pos
	num, err := d.numberText(k)
	if err != nil {
		return 0, err
	}
	v, ok := parseInteger(num, bits, unsigned)
	if !ok {
		return 0, d.errInvalid(start, k)
	}
	return v, nil
}

// plainInt consumes an integer written as up to 18 plain digits, quoted
// or not, which is how integers mostly come, scanning and converting them
// in one pass. It consumes nothing and returns false for anything else,
// valid or not, which intValue then takes the long way.
func (d *decoder) plainInt(bits int, unsigned bool) (uint64, bool) {
	in, i := d.in, d.pos
	quoted := i < len(in) && in[i] == '"'
	if quoted {
		i++
	}
	neg := i < len(in) && in[i] == '-'
	if neg {
		i++
	}
	start := i
	var v uint64
	for i < len(in) && i-start < 19 {
		c := in[i] - '0'
		if c > 9 {
			break
		}
		v = v*10 + uint64(c)
		i++
	}
	if n := i - start; n == 0 || n == 19 || n > 1 && in[start] == '0' {
		return 0, false
	}
	if quoted {
		if i >= len(in) || in[i] != '"' {
			return 0, false
		}
		i++
	} else if i < len(in) && isNotDelim(in[i]) {
		return 0, false
	}
	switch {
	case unsigned:
		if neg && v != 0 || bits == 32 && v > math.MaxUint32 {
			return 0, false
		}
	case neg:
		if v > 1<<(bits-1) {
			return 0, false
		}
		v = uint64(-int64(v))
	case v > 1<<(bits-1)-1:
		return 0, false
	}
	d.pos = i
	return v, true
}

// numberText scans a JSON number or a string holding one and returns its
// text (in the input or d.scratch).
func (d *decoder) numberText(k protoreflect.Kind) ([]byte, error) {
	start := d.pos
	switch c := d.skipWS(); {
	case c == '"':
		s, err := d.scanString()
		if err != nil {
			return nil, err
		}
		b := d.stringValue(s)
		if n, ok := scanNumber(b); !ok || n != len(b) {
			return nil, d.errInvalid(start, k)
		}
		return b, nil
	case c == '-' || '0' <= c && c <= '9':
		n, ok := scanNumber(d.in[d.pos:])
		if !ok {
			return nil, d.errSyntax(d.pos)
		}
		d.pos += n
		return d.in[d.pos-n : d.pos], nil
	}
	return nil, d.errValue(k)
}

// errValue reports a value of the wrong JSON type for kind k, or the
// syntax error that it is.
func (d *decoder) errValue(k protoreflect.Kind) error {
	start := d.pos
	if err := d.skipValue(0); err != nil {
		return err
	}
	return d.errInvalid(start, k)
}

// parseInteger converts the text of a JSON number to an integer of the
// given size; the fast path takes plain digits, the rest goes the way of
// protojson (normalise the exponent away, then strconv).
func parseInteger(b []byte, bits int, unsigned bool) (uint64, bool) {
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

// floatValue parses and appends a float or double: a JSON number, a string
// holding one, or "NaN", "Infinity", "-Infinity".
func (d *decoder) floatValue(f *dynamic.Field) error {
	bits := 64
	if f.Kind == protoreflect.FloatKind {
		bits = 32
	}
	v, err := d.floatOf(bits, f.Kind)
	if err != nil {
		return err
	}
	if bits == 32 {
		d.fixed32(math.Float32bits(float32(v)))
	} else {
		d.fixed64(math.Float64bits(v))
	}
	return nil
}

// floatOf parses a floating-point value of the given size.
func (d *decoder) floatOf(bits int, k protoreflect.Kind) (float64, error) {
	if bits == 64 {
		if v, ok := d.plainDouble(); ok {
			return v, nil
		}
	}
	start := d.pos
	var num []byte
	if d.skipWS() == '"' {
		s, err := d.scanString()
		if err != nil {
			return 0, err
		}
		num = d.stringValue(s)
		switch string(num) {
		case "NaN":
			return math.NaN(), nil
		case "Infinity":
			return math.Inf(1), nil
		case "-Infinity":
			return math.Inf(-1), nil
		}
		if n, ok := scanNumber(num); !ok || n != len(num) {
			return 0, d.errInvalid(start, k)
		}
	} else {
		var err error
		if num, err = d.numberText(k); err != nil {
			return 0, err
		}
	}
	v, ok := parseFloat(num, bits)
	if !ok {
		return 0, d.errInvalid(start, k)
	}
	return v, nil
}

// plainDouble consumes a double written as [-]digits[.digits] whose value
// exactFloat64 can compute, scanning and converting it in one pass, or
// consumes nothing and returns false.
func (d *decoder) plainDouble() (float64, bool) {
	in, i := d.in, d.pos
	neg := i < len(in) && in[i] == '-'
	if neg {
		i++
	}
	var m uint64
	digits, exp, start := 0, 0, i
	for ; i < len(in); i++ {
		c := in[i] - '0'
		if c > 9 {
			break
		}
		m = m*10 + uint64(c)
		digits++
	}
	if digits == 0 || digits > 1 && in[start] == '0' { // leading zeros
		return 0, false
	}
	if i+1 < len(in) && in[i] == '.' && in[i+1]-'0' <= 9 {
		for i++; i < len(in); i++ {
			c := in[i] - '0'
			if c > 9 {
				break
			}
			m = m*10 + uint64(c)
			digits++
			exp--
		}
	}
	if digits > 19 || m>>53 != 0 || exp < -22 || i < len(in) && isNotDelim(in[i]) {
		return 0, false
	}
	f := float64(m)
	if neg {
		f = -f
	}
	d.pos = i
	return f / exactPow10(-exp), true
}

// exactPow10 returns 10^n for 0 <= n <= 22, the powers a double holds
// exactly: pow10, a variable (a literal table here was copied to the stack
// on every call).
func exactPow10(n int) float64 { return pow10[n] }

var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseFloat converts the text of a JSON number to a float of the given
// size; false when out of its range.
func parseFloat(b []byte, bits int) (float64, bool) {
	if bits == 64 {
		if v, ok := exactFloat64(b); ok {
			return v, true
		}
	}
	v, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(b), len(b)), bits)
	return v, err == nil
}

// exactFloat64 converts the common JSON numbers whose value is one IEEE
// operation on exact operands, a mantissa below 2^53 times or divided by a
// power of ten up to 10^22, which is correctly rounded and so the value
// strconv.ParseFloat returns; false for the rest. b is a valid JSON number.
func exactFloat64(b []byte) (float64, bool) {
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
	return f / exactPow10(-exp), true
}
