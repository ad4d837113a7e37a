package transcode

import (
	"bytes"
	"encoding/base64"
	"slices"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/internal/jsonx"
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
func (d *decoder) appendString(s jsonx.String) {
	raw := d.in[s.Start:s.End]
	lenPos := len(d.out)
	d.varint(uint64(len(raw)))
	if !s.Esc {
		d.set(append(d.out, raw...))
		return
	}
	w := len(d.out) - lenPos
	d.set(jsonx.AppendUnescaped(d.out, raw))
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
	n, err := jsonx.DecodeBase64(enc, d.out[len(d.out):len(d.out)+max], src)
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
