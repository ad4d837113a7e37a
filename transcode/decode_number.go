package transcode

import (
	"math"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/internal/jsonx"
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
	v, ok := jsonx.ParseInt(num, bits, unsigned)
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
	} else if i < len(in) && jsonx.IsNotDelim(in[i]) {
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
		if n, ok := jsonx.ScanNumber(b); !ok || n != len(b) {
			return nil, d.errInvalid(start, k)
		}
		return b, nil
	case c == '-' || '0' <= c && c <= '9':
		n, ok := jsonx.ScanNumber(d.in[d.pos:])
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
		if n, ok := jsonx.ScanNumber(num); !ok || n != len(num) {
			return 0, d.errInvalid(start, k)
		}
	} else {
		var err error
		if num, err = d.numberText(k); err != nil {
			return 0, err
		}
	}
	v, ok := jsonx.ParseFloat(num, bits)
	if !ok {
		return 0, d.errInvalid(start, k)
	}
	return v, nil
}

// plainDouble consumes a double written as [-]digits[.digits] whose value
// jsonx.ExactFloat64 can compute, scanning and converting it in one pass, or
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
	if digits > 19 || m>>53 != 0 || exp < -22 || i < len(in) && jsonx.IsNotDelim(in[i]) {
		return 0, false
	}
	f := float64(m)
	if neg {
		f = -f
	}
	d.pos = i
	return f / jsonx.ExactPow10(-exp), true
}
