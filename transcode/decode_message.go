package transcode

import (
	"encoding/binary"
	"math"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/internal/jsonx"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// wktOf returns the well-known type t is, or wktNone.
func wktOf(t *dynamic.Type) wellKnown {
	n := t.FullName()
	if len(n) < len("google.protobuf.Any") || n[:len("google.protobuf.")] != "google.protobuf." {
		return wktNone
	}
	return wellKnownOf(n)
}

// message parses one JSON value of message type t, an object or the form
// of a well-known type, and appends its fields. Like protojson it counts
// one level of nesting per message.
func (d *decoder) message(t *dynamic.Type, skipType bool) error {
	if d.depth--; d.depth < 0 {
		return d.errAt(d.pos, "exceeded maximum nesting depth")
	}
	err := d.messageBody(t, skipType)
	d.depth++
	return err
}

// messageBody is message without the nesting count.
func (d *decoder) messageBody(t *dynamic.Type, skipType bool) error {
	if wk := wktOf(t); wk != wktNone {
		return d.wellKnown(t, wk)
	}
	return d.object(t, skipType)
}

// object parses a JSON object of the fields of t. skipType ignores "@type"
// keys, in the object of an Any.
func (d *decoder) object(t *dynamic.Type, skipType bool) error {
	if d.skipWS() != '{' {
		return d.errUnexpected(d.pos)
	}
	open := d.pos
	d.pos++
	fr := frame{big: len(d.big)}
	hint, keys := 0, planOf(t).keyWords
	c := d.skipWS()
	if c != '}' {
		for {
			if c != '"' {
				return d.errUnexpected(d.pos)
			}
			keyOff := d.pos
			var err error
			var name []byte
			f, colon := d.nextKey(t, keys, &hint)
			if f == nil {
				var ks jsonx.String
				if ks, err = d.scanString(); err != nil {
					return err
				}
				name = d.stringValue(ks)
				f = lookupField(t, name, &hint)
			}
			if !colon {
				if err := d.colon(); err != nil {
					return err
				}
			}
			switch {
			case f != nil && colon && f.Num < frameBits && f.Message == nil && f.Oneof < 0 && !f.List && !f.Map:
				// a singular scalar: field's work with none of its checks
				// but the duplicate one and null (the others are for
				// lists, maps, oneofs and messages)
				if fr.seeBit(f.Num) {
					return d.errAt(keyOff, "duplicate field %s", d.tokenText(keyOff))
				}
				if d.skipWS() == 'n' {
					err = d.fieldValue(f, &fr, keyOff)
					break
				}
				var ok bool
				if ok, err = d.singular(f); ok && f.Required {
					d.markSet(&fr, f.Num)
				}
			case f != nil:
				err = d.field(f, &fr, keyOff)
			case skipType && string(name) == "@type":
				err = d.skipValue(0)
			default:
				f, err = d.extension(t, name, keyOff)
				if err == nil && f != nil {
					err = d.field(f, &fr, keyOff)
				} else if err == nil {
					err = d.unknown(t, keyOff)
				}
			}
			if err != nil {
				if f != nil {
					return d.inField(err, f)
				}
				return err
			}
			if d.commaQuote() {
				c = '"'
				continue
			}
			c = d.skipWS()
			if c == ',' {
				d.pos++
				c = d.skipWS()
				continue
			}
			if c != '}' {
				return d.errUnexpected(d.pos)
			}
			break
		}
	}
	d.pos++
	d.big = d.big[:fr.big]
	if len(t.Required) > 0 && d.noReq == 0 && !d.partial {
		return d.checkRequired(t, &fr, open)
	}
	return nil
}

// commaQuote consumes a comma followed at once by a quote, the usual
// start of an object's next member, reading d.pos once; the quote stays.
func (d *decoder) commaQuote() bool {
	if in, p := d.in, d.pos; p+1 < len(in) && in[p] == ',' && in[p+1] == '"' {
		d.pos = p + 1
		return true
	}
	return false
}

// colon consumes the colon after an object key.
func (d *decoder) colon() error {
	if d.skipWS() != ':' {
		if d.pos >= len(d.in) {
			return d.errEOF(d.pos, "unexpected end of input")
		}
		return d.errAt(d.pos, "unexpected character %s, missing \":\" after field name", d.tokenText(d.pos))
	}
	d.pos++
	return nil
}

// unknown skips or rejects the value of the unknown key at keyOff, a key
// in an object of t (nil: a well-known type's, with no fields to suggest).
func (d *decoder) unknown(t *dynamic.Type, keyOff int) error {
	if d.discard {
		return d.skipValue(0)
	}
	return d.errUnknown(t, keyOff)
}

// nextKey consumes the key at d.pos when it is, quotes and all, the JSON
// name of one of the next few fields from hint on, and returns the field:
// JSON names are ASCII identifiers, so such a key needs no scanning. Most
// names are compared with the key in two masked words, keys (t's in its
// plan). A colon right after the key is consumed too, and reported.
func (d *decoder) nextKey(t *dynamic.Type, keys []keyWords, hint *int) (*dynamic.Field, bool) {
	fs, in := t.Fields, d.in[d.pos+1:]
	keys = keys[:len(fs)]
	var w0, w1 uint64
	words := len(in) >= 16
	if words {
		w0, w1 = binary.LittleEndian.Uint64(in), binary.LittleEndian.Uint64(in[8:])
	}
	for i, n := *hint, min(*hint+4, len(fs)); i < n; i++ {
		k := -1
		if words {
			k = keys[i].match(w0, w1)
		}
		if k < 0 {
			name := fs[i].JSONName
			if k = 0; len(name) < len(in) && in[len(name)] == '"' && string(in[:len(name)]) == name {
				k = len(name) + 1
			}
		}
		if k > 0 {
			*hint = i + 1
			if k < len(in) && in[k] == ':' {
				d.pos += k + 2
				return fs[i], true
			}
			d.pos += k + 1
			return fs[i], false
		}
	}
	return nil, false
}

// lookupField finds the field named name, by JSON name or proto name as
// protojson does (and, for groups, by the group's type name). hint is the
// index in t.Fields after the last field found: JSON written by a
// marshaller names fields in declaration order, so the next field is
// usually a little further on.
func lookupField(t *dynamic.Type, name []byte, hint *int) *dynamic.Field {
	fs := t.Fields
	for i, n := *hint, min(*hint+4, len(fs)); i < n; i++ {
		if fs[i].JSONName == string(name) {
			*hint = i + 1
			return fs[i]
		}
	}
	if f := t.FieldByJSONNameBytes(name); f != nil {
		return f
	}
	if f := t.FieldByNameBytes(name); f != nil {
		return f
	}
	return lookupGroup(t, name)
}

// lookupGroup finds a group field by its type name or lower-cased JSON
// name, the other names protojson accepts for groups.
func lookupGroup(t *dynamic.Type, name []byte) *dynamic.Field {
	for _, f := range t.Fields {
		if f.Kind != protoreflect.GroupKind {
			continue
		}
		if f.Desc.TextName() == string(name) || lowerEquals(f.JSONName, name) {
			return f
		}
	}
	return nil
}

func lowerEquals(s string, b []byte) bool {
	if len(s) != len(b) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != b[i] {
			return false
		}
	}
	return true
}

// extension resolves a "[full.name]" key to an extension field of t; nil
// with no error means the name is unknown.
func (d *decoder) extension(t *dynamic.Type, name []byte, keyOff int) (*dynamic.Field, error) {
	if len(name) < 2 || name[0] != '[' || name[len(name)-1] != ']' {
		return nil, nil
	}
	xt, err := d.resolver().FindExtensionByName(protoreflect.FullName(name[1 : len(name)-1]))
	if err != nil && err != protoregistry.NotFound {
		return nil, d.errWrap(keyOff, err, "unable to resolve %s: %v", d.tokenText(keyOff), err)
	}
	if xt == nil {
		return nil, nil
	}
	xd := xt.TypeDescriptor()
	if !t.Desc.ExtensionRanges().Has(xd.Number()) || xd.ContainingMessage().FullName() != t.FullName() {
		return nil, d.errAt(keyOff, "message %v cannot be extended by %v", t.FullName(), xd.FullName())
	}
	return t.Cache().Extension(xd), nil
}

// field parses the value of field f, whose key is at keyOff.
func (d *decoder) field(f *dynamic.Field, fr *frame, keyOff int) error {
	if d.see(fr, f.Num) {
		return d.errAt(keyOff, "duplicate field %s", d.tokenText(keyOff))
	}
	return d.fieldValue(f, fr, keyOff)
}

// fieldValue is field once f is marked seen.
func (d *decoder) fieldValue(f *dynamic.Field, fr *frame, keyOff int) error {
	if d.skipWS() == 'n' && !acceptsNull(f) {
		if !d.literal("null") {
			return d.errUnexpected(d.pos)
		}
		return nil
	}
	switch {
	case f.Map:
		return d.mapField(f)
	case f.List:
		return d.list(f)
	}
	if f.Oneof >= 0 && d.setOneof(fr, f.Oneof) {
		return d.errAt(keyOff, "oneof %s is already set", f.Desc.ContainingOneof().FullName())
	}
	ok, err := d.singular(f)
	if ok && f.Required {
		d.markSet(fr, f.Num)
	}
	return err
}

// acceptsNull reports whether JSON null is a value of f rather than its
// absence: google.protobuf.Value and NullValue fields.
func acceptsNull(f *dynamic.Field) bool {
	if f.Message != nil {
		return wktOf(f.Message) == wktValue
	}
	return f.Enum != nil && f.Enum.Desc.FullName() == nullValueName
}

// singular parses the value of a singular field and appends it with its
// tag; a field without presence holding its zero value is left out, as
// proto.Marshal leaves it. ok is false when the value was dropped.
func (d *decoder) singular(f *dynamic.Field) (ok bool, err error) {
	if f.Message != nil {
		return true, d.messageField(f)
	}
	if done, err := d.plainScalar(f); done || err != nil {
		return done, err
	}
	mark := len(d.out)
	d.tag(f.Num, f.WireType)
	vs := len(d.out)
	if ok, err = d.scalar(f); !ok || err != nil {
		d.out = d.out[:mark]
		return false, err
	}
	if !f.HasPresence && allZero(d.out[vs:]) {
		d.out = d.out[:mark]
	}
	return true, nil
}

// plainScalar is singular's fast path for the common kinds in their plain
// forms: integers of the varint kinds and doubles as plainInt and
// plainDouble read them, strings, enum names. It appends the tag and the
// value (or, for a zero value without presence, nothing) and reports done;
// for anything else it consumes nothing and leaves the value to scalar.
// d.pos is at the value.
func (d *decoder) plainScalar(f *dynamic.Field) (done bool, err error) {
	switch f.Kind {
	case protoreflect.Int64Kind, protoreflect.Int32Kind, protoreflect.Uint64Kind, protoreflect.Uint32Kind:
		v, ok := d.plainInt(intForm(f.Kind))
		if !ok {
			return false, nil
		}
		if v != 0 || f.HasPresence {
			d.tag(f.Num, protowire.VarintType)
			d.varint(v)
		}
		return true, nil
	case protoreflect.DoubleKind:
		v, ok := d.plainDouble()
		if !ok {
			return false, nil
		}
		if b := math.Float64bits(v); b != 0 || f.HasPresence {
			d.tag(f.Num, protowire.Fixed64Type)
			d.fixed64(b)
		}
		return true, nil
	case protoreflect.StringKind:
		if d.pos >= len(d.in) || d.in[d.pos] != '"' {
			return false, nil
		}
		s, err := d.scanString()
		if err != nil {
			return false, err
		}
		if s.End > s.Start || f.HasPresence {
			d.tag(f.Num, protowire.BytesType)
			d.appendString(s)
		}
		return true, nil
	case protoreflect.EnumKind:
		start := d.pos
		if start >= len(d.in) || d.in[start] != '"' {
			return false, nil
		}
		s, err := d.scanString()
		if err != nil {
			return false, err
		}
		n, ok := enumNumber(f.Enum, d.stringValue(s))
		if !ok {
			d.pos = start // scalar reports it, or drops it
			return false, nil
		}
		if n != 0 || f.HasPresence {
			d.tag(f.Num, protowire.VarintType)
			d.varint(uint64(int64(n)))
		}
		return true, nil
	}
	return false, nil
}

// allZero reports whether an encoded scalar is its type's zero value:
// a zero varint, zero fixed bits (not -0.0) or an empty string.
func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// messageField appends one message value of f (singular or an element).
func (d *decoder) messageField(f *dynamic.Field) error {
	if f.Kind == protoreflect.GroupKind {
		d.tag(f.Num, protowire.StartGroupType)
		if err := d.message(f.Message, false); err != nil {
			return err
		}
		d.tag(f.Num, protowire.EndGroupType)
		return nil
	}
	d.tag(f.Num, protowire.BytesType)
	start := d.openLen()
	if err := d.message(f.Message, false); err != nil {
		return err
	}
	d.closeLen(start)
	return nil
}

// checkRequired reports the first required field of t the object did not
// set (protojson's proto.CheckInitialized).
func (d *decoder) checkRequired(t *dynamic.Type, fr *frame, off int) error {
	for _, f := range t.Required {
		if !d.isSet(fr, f.Num) {
			return d.errAt(off, "required field %s not set", f.Desc.FullName())
		}
	}
	return nil
}

// The appends of single bytes to d.out are written as
// d.out = append(d.out, ...), which the compiler turns into a length update
// when there is room; other slices stored in d.out go through set, which
// stores only the length while the array is the same, as a slice stored
// whole would cost a GC write barrier.

// set makes out, which appends grew from d.out, the output (see setOut).
func (d *decoder) set(out []byte) { setOut(&d.out, out) }

// tag appends the tag of field num with wire type wt.
func (d *decoder) tag(num protowire.Number, wt protowire.Type) {
	d.varint(uint64(num)<<3 | uint64(wt))
}

// varint appends v as a varint.
func (d *decoder) varint(v uint64) {
	for v >= 0x80 {
		d.out = append(d.out, byte(v)|0x80)
		v >>= 7
	}
	d.out = append(d.out, byte(v))
}

func (d *decoder) fixed32(v uint32) {
	d.out = append(d.out, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
}

func (d *decoder) fixed64(v uint64) {
	d.out = append(d.out, byte(v), byte(v>>8), byte(v>>16), byte(v>>24),
		byte(v>>32), byte(v>>40), byte(v>>48), byte(v>>56))
}

// openLen reserves one byte for the length of the value that follows and
// returns where the value starts.
func (d *decoder) openLen() int {
	d.out = append(d.out, 0)
	return len(d.out)
}

// closeLen writes the length of the value started at start, moving the
// value when the length needs more than the byte reserved.
func (d *decoder) closeLen(start int) {
	n := len(d.out) - start
	if n < 0x80 {
		d.out[start-1] = byte(n)
		return
	}
	w := protowire.SizeVarint(uint64(n))
	var pad [9]byte
	d.set(append(d.out, pad[:w-1]...))
	copy(d.out[start+w-1:], d.out[start:start+n])
	protowire.AppendVarint(d.out[:start-1], uint64(n))
}

// fixLen rewrites the length at lenPos, w bytes wide, to n, the length of
// the value after it, closing the gap when n needs fewer bytes.
func (d *decoder) fixLen(lenPos, w, n int) {
	nw := protowire.SizeVarint(uint64(n))
	protowire.AppendVarint(d.out[:lenPos], uint64(n))
	if nw != w {
		copy(d.out[lenPos+nw:], d.out[lenPos+w:])
		d.out = d.out[:len(d.out)-(w-nw)]
	}
}
