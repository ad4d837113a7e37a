package transcode

import (
	"bytes"
	"encoding/base64"
	"math"

	"github.com/rpckit/rpckit/internal/jsonx"
	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/idl"
)

// value converts the JSON value at d.pos to a value of type t. i64 values
// may be numbers or strings either way.
func (d *decoder) value(t *dynamic.Type) error {
	switch t.Kind {
	case idl.StructKind, idl.UnionKind, idl.ExceptionKind:
		if d.skipWS() != '{' {
			return d.errUnexpected("'{' of a " + t.Name())
		}
		return d.structValue(t)
	case idl.ListKind, idl.SetKind:
		return d.list(t)
	case idl.MapKind:
		return d.mapValue(t)
	case idl.BoolKind:
		if c := d.skipWS(); c != '"' {
			v, err := d.boolValue()
			d.set(d.p.AppendBool(d.out, v))
			return err
		}
	}
	start := d.pos
	switch c := d.skipWS(); {
	case c == '"':
		s, err := d.scanString()
		if err != nil {
			return err
		}
		return d.fromString(t, s, start)
	case c == '-' || '0' <= c && c <= '9':
		if bits := intBits[t.Kind]; bits != 0 {
			if v, ok := d.plainInt(bits); ok {
				d.appendInt(bits, v)
				return nil
			}
		}
		n, ok := jsonx.ScanNumber(d.in[d.pos:])
		if !ok {
			return d.errUnexpected("a number")
		}
		d.pos += n
		return d.fromNumber(t, d.in[start:d.pos], start)
	}
	return d.errUnexpected("a " + t.Name())
}

func (d *decoder) boolValue() (bool, error) {
	switch {
	case d.skipWS() == 't' && d.literal("true"):
		return true, nil
	case d.skipWS() == 'f' && d.literal("false"):
		return false, nil
	}
	return false, d.errUnexpected("true or false")
}

// fromNumber converts the JSON number text at off to a value of type t.
func (d *decoder) fromNumber(t *dynamic.Type, text []byte, off int) error {
	switch t.Kind {
	case idl.I8Kind, idl.I16Kind, idl.I32Kind, idl.I64Kind, idl.EnumKind:
		return d.intValue(t, text, off)
	case idl.DoubleKind:
		v, ok := jsonx.ParseFloat(text, 64)
		if !ok {
			return d.errAt(off, "invalid double "+quoteBytes(text))
		}
		d.set(d.p.AppendDouble(d.out, v))
		return nil
	}
	return d.errAt(off, "a number where a "+t.Name()+" is due")
}

var intBits = [...]int{idl.I8Kind: 8, idl.I16Kind: 16, idl.I32Kind: 32, idl.EnumKind: 32, idl.I64Kind: 64}

func (d *decoder) intValue(t *dynamic.Type, text []byte, off int) error {
	bits := intBits[t.Kind]
	v, ok := jsonx.ParseInt(text, bits, false)
	if !ok {
		return d.errAt(off, "invalid "+t.Kind.String()+" "+quoteBytes(text))
	}
	d.appendInt(bits, int64(v))
	return nil
}

func (d *decoder) appendInt(bits int, v int64) {
	switch bits {
	case 8:
		d.set(d.p.AppendByte(d.out, int8(v)))
	case 16:
		d.set(d.p.AppendI16(d.out, int16(v)))
	case 32:
		d.set(d.p.AppendI32(d.out, int32(v)))
	default:
		d.set(d.p.AppendI64(d.out, v))
	}
}

// plainInt consumes an integer written as -?digits (no leading zero, at
// most 18 digits, ending at a delimiter) that fits bits, scanning and
// converting it in one pass; otherwise it consumes nothing and reports
// false, and the general path (exponents, range errors) takes over.
func (d *decoder) plainInt(bits int) (int64, bool) {
	in, i := d.in, d.pos
	neg := in[i] == '-'
	if neg {
		i++
	}
	start := i
	var v int64
	for ; i < len(in) && i-start < 18; i++ {
		c := in[i] - '0'
		if c > 9 {
			break
		}
		v = v*10 + int64(c)
	}
	n := i - start
	if n == 0 || n > 1 && in[start] == '0' || i < len(in) && jsonx.IsNotDelim(in[i]) {
		return 0, false
	}
	if neg {
		v = -v
	}
	if bits < 64 && (v < -1<<(bits-1) || v > 1<<(bits-1)-1) {
		return 0, false
	}
	d.pos = i
	return v, true
}

// fromString converts the JSON string s at off to a value of type t: the
// string itself, base64 for binary, or the text of a number, an enum name,
// a uuid, a bool, NaN or an infinity.
func (d *decoder) fromString(t *dynamic.Type, s jsonx.String, off int) error {
	switch t.Kind {
	case idl.StringKind:
		d.stringBytes(s)
		return nil
	case idl.BinaryKind:
		return d.base64Value(d.stringValue(s), off)
	case idl.UUIDKind:
		return d.uuidValue(d.stringValue(s), off)
	case idl.BoolKind:
		return d.boolString(d.stringValue(s), off)
	case idl.EnumKind:
		if ev := t.Enum.Value(string(d.stringValue(s))); ev != nil {
			d.set(d.p.AppendI32(d.out, ev.Value))
			return nil
		}
	case idl.DoubleKind:
		if v, ok := specialFloat(d.stringValue(s)); ok {
			d.set(d.p.AppendDouble(d.out, v))
			return nil
		}
	}
	text := d.stringValue(s)
	if n, ok := jsonx.ScanNumber(text); !ok || n != len(text) {
		return d.errAt(off, "invalid "+t.Name()+" "+quoteBytes(text))
	}
	return d.fromNumber(t, text, off)
}

func specialFloat(s []byte) (float64, bool) {
	switch string(s) {
	case "NaN":
		return math.NaN(), true
	case "Infinity":
		return math.Inf(1), true
	case "-Infinity":
		return math.Inf(-1), true
	}
	return 0, false
}

func (d *decoder) boolString(s []byte, off int) error {
	switch string(s) {
	case "true":
		d.set(d.p.AppendBool(d.out, true))
	case "false":
		d.set(d.p.AppendBool(d.out, false))
	default:
		return d.errAt(off, "invalid bool "+quoteBytes(s))
	}
	return nil
}

// stringBytes writes the string s, unescaping it straight into the output
// after a length prefix sized for its raw text.
func (d *decoder) stringBytes(s jsonx.String) {
	raw := d.in[s.Start:s.End]
	if !s.Esc {
		d.set(d.p.AppendBinary(d.out, raw))
		return
	}
	pos := len(d.out)
	d.set(appendLen(d.p, d.out, len(raw)))
	w := len(d.out) - pos
	d.set(jsonx.AppendUnescaped(d.out, raw))
	var h [8]byte
	d.fixHeader(pos, w, appendLen(d.p, h[:0], len(d.out)-pos-w))
}

// base64Value writes binary from base64, standard or URL alphabet, padded
// or not: the standard alphabet first, then the URL one when the text has
// '-' or '_'.
func (d *decoder) base64Value(src []byte, off int) error {
	std, url := base64.StdEncoding, base64.URLEncoding
	if len(src)%4 != 0 {
		std, url = base64.RawStdEncoding, base64.RawURLEncoding
	}
	if d.appendBase64(std, src) {
		return nil
	}
	if (bytes.IndexByte(src, '-') >= 0 || bytes.IndexByte(src, '_') >= 0) && d.appendBase64(url, src) {
		return nil
	}
	return d.errAt(off, "invalid base64 "+quoteBytes(src[:min(len(src), 40)]))
}

func (d *decoder) appendBase64(enc *base64.Encoding, src []byte) bool {
	max := enc.DecodedLen(len(src))
	pos := len(d.out)
	d.set(appendLen(d.p, d.out, max))
	w := len(d.out) - pos
	if cap(d.out)-len(d.out) < max {
		d.set(append(d.out, make([]byte, max)...)[:len(d.out)])
	}
	n, err := jsonx.DecodeBase64(enc, d.out[len(d.out):len(d.out)+max], src)
	if err != nil {
		d.set(d.out[:pos])
		return false
	}
	d.set(d.out[:pos+w+n])
	var h [8]byte
	d.fixHeader(pos, w, appendLen(d.p, h[:0], n))
	return true
}

// uuidValue writes a uuid from its text, 8-4-4-4-12 hex digits.
func (d *decoder) uuidValue(s []byte, off int) error {
	var v [16]byte
	if len(s) != 36 {
		return d.errAt(off, "invalid uuid "+quoteBytes(s))
	}
	j := 0
	for i := 0; i < 36; i += 2 {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if s[i] != '-' {
				return d.errAt(off, "invalid uuid "+quoteBytes(s))
			}
			i--
			continue
		}
		hi, ok1 := unhex(s[i])
		lo, ok2 := unhex(s[i+1])
		if !ok1 || !ok2 {
			return d.errAt(off, "invalid uuid "+quoteBytes(s))
		}
		v[j] = hi<<4 | lo
		j++
	}
	d.set(d.p.AppendUUID(d.out, v))
	return nil
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
