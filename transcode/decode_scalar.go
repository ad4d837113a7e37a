package transcode

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"slices"

	"github.com/rpckit/rpckit/dynamic"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// scalar parses the JSON value of one element of the scalar field f and
// appends its wire value, without a tag. ok is false when the value is
// dropped: an enum name the enum lacks, with DiscardUnknown.
func (d *decoder) scalar(f *dynamic.Field) (ok bool, err error) {
	switch f.Kind {
	case protoreflect.StringKind:
		return true, d.stringField(f)
	case protoreflect.EnumKind:
		return d.enum(f)
	case protoreflect.BoolKind:
		return true, d.boolValue()
	case protoreflect.BytesKind:
		return true, d.bytesValue(f)
	case protoreflect.FloatKind, protoreflect.DoubleKind:
		return true, d.floatValue(f)
	}
	return true, d.intField(f)
}

// boolValue parses and appends true or false.
func (d *decoder) boolValue() error {
	switch d.skipWS() {
	case 't':
		if d.literal("true") {
			d.out = append(d.out, 1)
			return nil
		}
	case 'f':
		if d.literal("false") {
			d.out = append(d.out, 0)
			return nil
		}
	}
	return d.errValue(protoreflect.BoolKind)
}

// stringField parses and appends a string: its length, then its bytes.
func (d *decoder) stringField(f *dynamic.Field) error {
	if d.skipWS() != '"' {
		return d.errValue(f.Kind)
	}
	s, err := d.scanString()
	if err != nil {
		return err
	}
	d.appendString(s)
	return nil
}

// appendString appends the length and value of the scanned string s.
func (d *decoder) appendString(s jsonString) {
	raw := d.in[s.start:s.end]
	lenPos := len(d.out)
	d.varint(uint64(len(raw)))
	if !s.esc {
		d.set(append(d.out, raw...))
		return
	}
	w := len(d.out) - lenPos
	d.set(appendUnescaped(d.out, raw))
	d.fixLen(lenPos, w, len(d.out)-lenPos-w)
}

// bytesValue parses and appends a bytes value: base64, standard or URL
// alphabet, padded or not. protojson picks the URL alphabet when the text
// has '-' or '_', which the standard alphabet cannot decode, so trying the
// standard one first gives the same result.
func (d *decoder) bytesValue(f *dynamic.Field) error {
	start := d.pos
	if d.skipWS() != '"' {
		return d.errValue(f.Kind)
	}
	s, err := d.scanString()
	if err != nil {
		return err
	}
	src := d.stringValue(s)
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
	return d.errInvalid(start, f.Kind)
}

// decodeBase64 is enc.Decode(dst, src), eight characters at a time to six
// bytes (stored as one word while there is room) for the standard
// alphabet, then four at a time, the last quantum padded or not as enc
// says. Quanta decode on their own, so the result is the same; at a
// character outside the alphabet (line breaks, which Decode skips, a bad
// character, padding out of place) it leaves it all to enc.Decode.
func decodeBase64(enc *base64.Encoding, dst, src []byte) (int, error) {
	if enc != base64.StdEncoding && enc != base64.RawStdEncoding {
		return enc.Decode(dst, src)
	}
	t := &base64Values
	i, n := 0, 0
	for len(src)-i >= 12 {
		q := src[i : i+8]
		a, b, c, e := t[q[0]], t[q[1]], t[q[2]], t[q[3]]
		f, g, h, k := t[q[4]], t[q[5]], t[q[6]], t[q[7]]
		if (a|b|c|e|f|g|h|k)&0xc0 != 0 {
			return enc.Decode(dst, src)
		}
		v := uint64(a)<<58 | uint64(b)<<52 | uint64(c)<<46 | uint64(e)<<40 |
			uint64(f)<<34 | uint64(g)<<28 | uint64(h)<<22 | uint64(k)<<16
		binary.BigEndian.PutUint64(dst[n:], v)
		i, n = i+8, n+6
	}
	padded := enc == base64.StdEncoding
	for i < len(src) {
		q := src[i:min(i+4, len(src))]
		if padded && len(q) == 4 {
			switch {
			case q[3] != '=':
			case q[2] == '=' && i+4 == len(src):
				q = q[:2]
			case q[2] != '=' && i+4 == len(src):
				q = q[:3]
			default:
				return enc.Decode(dst, src)
			}
		} else if padded || len(q) == 1 {
			return enc.Decode(dst, src)
		}
		var v uint32
		for j, c := range q {
			x := t[c]
			if x&0xc0 != 0 {
				return enc.Decode(dst, src)
			}
			v |= uint32(x) << (26 - 6*j)
		}
		switch len(q) {
		case 4:
			dst[n], dst[n+1], dst[n+2] = byte(v>>24), byte(v>>16), byte(v>>8)
			n += 3
		case 3:
			dst[n], dst[n+1] = byte(v>>24), byte(v>>16)
			n += 2
		case 2:
			dst[n] = byte(v >> 24)
			n++
		}
		i += 4
	}
	return n, nil
}

// base64Values maps the characters of the standard base64 alphabet to
// their values, and every other byte to 0xff.
var base64Values = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for i, c := range []byte(base64Std) {
		t[c] = byte(i)
	}
	return t
}()

// appendBase64 appends the length and bytes that src decodes to with enc
// (one of the four standard encodings), or nothing if it does not decode.
func (d *decoder) appendBase64(enc *base64.Encoding, src []byte) bool {
	max := enc.DecodedLen(len(src))
	lenPos := len(d.out)
	d.varint(uint64(max))
	w := len(d.out) - lenPos
	if cap(d.out)-len(d.out) < max {
		d.out = slices.Grow(d.out, max)
	}
	n, err := decodeBase64(enc, d.out[len(d.out):len(d.out)+max], src)
	if err != nil {
		d.out = d.out[:lenPos]
		return false
	}
	d.out = d.out[:lenPos+w+n]
	d.fixLen(lenPos, w, n)
	return true
}

// enumNumber returns the number of the value of e named name. Most enums
// number their first values from 0 without gaps, and comparing with those
// names beats hashing.
func enumNumber(e *dynamic.Enum, name []byte) (protoreflect.EnumNumber, bool) {
	for n := protoreflect.EnumNumber(0); n < 8; n++ {
		s, ok := e.Name(n)
		if !ok {
			break
		}
		if s == string(name) {
			return n, true
		}
	}
	return e.NumberBytes(name)
}

// enum parses and appends an enum value: a name, a number, or null for
// google.protobuf.NullValue.
func (d *decoder) enum(f *dynamic.Field) (bool, error) {
	start := d.pos
	switch c := d.skipWS(); {
	case c == '"':
		s, err := d.scanString()
		if err != nil {
			return false, err
		}
		n, ok := enumNumber(f.Enum, d.stringValue(s))
		if !ok {
			if d.discard {
				return false, nil
			}
			return false, d.errAt(start, "invalid value for enum %s: %s", f.Enum.Desc.FullName(), d.tokenText(start))
		}
		d.varint(uint64(int64(n)))
		return true, nil
	case c == '-' || '0' <= c && c <= '9':
		v, err := d.intValue(32, false, f.Kind)
		if err != nil {
			return false, err
		}
		d.varint(v)
		return true, nil
	case c == 'n' && f.Enum.Desc.FullName() == nullValueName:
		if d.literal("null") {
			d.out = append(d.out, 0)
			return true, nil
		}
	}
	return false, d.errValue(f.Kind)
}
