package transcode

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"strconv"
	"unsafe"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/internal/jsonx"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// mapKey is a key of a map being parsed, kept to reject duplicates: the
// number, or the string's place in the input.
type mapKey struct {
	v     uint64
	s     jsonx.String
	isStr bool
}

// smallMap is the number of keys a map's duplicates are looked for among
// by comparing with every earlier key; beyond it they go to a hash set.
const smallMap = 16

// mapKeys are the keys of one map seen so far.
type mapKeys struct {
	n   int
	v   [smallMap]uint64       // the numbers, or the fingerprints of the strings
	s   [smallMap]jsonx.String // the strings
	big map[string]struct{}
}

// mapField parses a JSON object of the map field f, one entry per key.
func (d *decoder) mapField(f *dynamic.Field) error {
	if d.skipWS() != '{' {
		return d.errUnexpected(d.pos)
	}
	d.pos++
	var keys mapKeys
	c := d.skipWS()
	for c != '}' {
		if c != '"' {
			return d.errUnexpected(d.pos)
		}
		keyOff := d.pos
		ks, err := d.scanString()
		if err != nil {
			return err
		}
		if err := d.colon(); err != nil {
			return err
		}
		k, err := d.parseKey(f.MapKey, ks, keyOff)
		if err != nil {
			return err
		}
		if d.dupKey(&keys, k) {
			return d.errAt(keyOff, "duplicate map key %s", d.tokenText(keyOff))
		}
		ok, err := d.entry(f, k)
		if err != nil {
			return d.inKey(err, f.MapKey, k)
		}
		if ok {
			d.addKey(&keys, k)
		}
		if d.commaQuote() {
			c = '"'
		} else if c = d.skipWS(); c == ',' {
			d.pos++
			if c = d.skipWS(); c == '}' {
				return d.errUnexpected(d.pos)
			}
		} else if c != '}' {
			return d.errUnexpected(d.pos)
		}
	}
	d.pos++
	return nil
}

// parseKey converts a JSON object key to a key of kind kf.Kind, as
// protojson does (strconv's rules for numbers).
func (d *decoder) parseKey(kf *dynamic.Field, ks jsonx.String, keyOff int) (mapKey, error) {
	if kf.Kind == protoreflect.StringKind {
		return mapKey{v: fingerprint(d.stringValue(ks)), s: ks, isStr: true}, nil
	}
	name := d.stringValue(ks)
	s := unsafe.String(unsafe.SliceData(name), len(name))
	var v uint64
	var err error
	switch kf.Kind {
	case protoreflect.BoolKind:
		switch s {
		case "true":
			v = 1
		case "false":
		default:
			err = strconv.ErrSyntax
		}
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		var x int64
		x, err = strconv.ParseInt(s, 10, 32)
		v = uint64(x)
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		var x int64
		x, err = strconv.ParseInt(s, 10, 64)
		v = uint64(x)
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		v, err = strconv.ParseUint(s, 10, 32)
	default:
		v, err = strconv.ParseUint(s, 10, 64)
	}
	if err != nil {
		return mapKey{}, d.errAt(keyOff, "invalid value for %v key: %s", kf.Kind, d.tokenText(keyOff))
	}
	return mapKey{v: v}, nil
}

// dupKey reports whether k is among keys. Keys with the same value have
// the same number or fingerprint, whatever their escapes.
func (d *decoder) dupKey(keys *mapKeys, k mapKey) bool {
	if keys.big != nil {
		_, dup := keys.big[d.keyString(k)]
		return dup
	}
	for i, v := range keys.v[:keys.n] {
		if v == k.v && (!k.isStr || d.sameString(keys.s[i], k.s)) {
			return true
		}
	}
	return false
}

// addKey adds k to keys.
func (d *decoder) addKey(keys *mapKeys, k mapKey) {
	if keys.n < smallMap {
		keys.v[keys.n], keys.s[keys.n] = k.v, k.s
		keys.n++
		return
	}
	if keys.big == nil {
		keys.big = make(map[string]struct{}, 4*smallMap)
		for i := range keys.n {
			keys.big[d.keyString(mapKey{v: keys.v[i], s: keys.s[i], isStr: k.isStr})] = struct{}{}
		}
	}
	keys.big[d.keyString(k)] = struct{}{}
}

// sameString reports whether two scanned strings have the same value.
func (d *decoder) sameString(x, y jsonx.String) bool {
	if !x.Esc && !y.Esc {
		return bytes.Equal(d.in[x.Start:x.End], d.in[y.Start:y.End])
	}
	return string(d.stringValue(x)) == string(jsonx.AppendUnescaped(nil, d.in[y.Start:y.End]))
}

// fingerprint sums up a string key, to tell most different keys apart
// without comparing them.
func fingerprint(b []byte) uint64 {
	var v uint64
	if n := len(b); n >= 8 {
		v = binary.LittleEndian.Uint64(b) ^ bits.RotateLeft64(binary.LittleEndian.Uint64(b[n-8:]), 29)
	} else {
		for _, c := range b {
			v = v<<8 | uint64(c)
		}
	}
	return v ^ uint64(len(b))*0x9e3779b97f4a7c15
}

// keyString returns the value of k as a string (a new one).
func (d *decoder) keyString(k mapKey) string {
	if !k.isStr {
		return string(binary.LittleEndian.AppendUint64(nil, k.v))
	}
	return string(d.stringValue(k.s))
}

// entry appends the map entry of key k and the value that follows; ok is
// false when the value is dropped, and the entry with it.
func (d *decoder) entry(f *dynamic.Field, k mapKey) (ok bool, err error) {
	mark := len(d.out)
	d.tag(f.Num, protowire.BytesType)
	start := d.openLen()
	d.appendKey(f.MapKey, k)
	vf := f.MapValue
	if vf.Message != nil {
		err = d.messageField(vf)
		ok = true
	} else {
		d.tag(vf.Num, vf.WireType)
		ok, err = d.scalar(vf)
	}
	if !ok || err != nil {
		d.out = d.out[:mark]
		return false, err
	}
	d.closeLen(start)
	return true, nil
}

// appendKey appends field 1 of a map entry, the key.
func (d *decoder) appendKey(kf *dynamic.Field, k mapKey) {
	d.tag(kf.Num, kf.WireType)
	switch kf.Kind {
	case protoreflect.StringKind:
		d.appendString(k.s)
	case protoreflect.Sint32Kind, protoreflect.Sint64Kind:
		d.varint(protowire.EncodeZigZag(int64(k.v)))
	case protoreflect.Fixed32Kind, protoreflect.Sfixed32Kind:
		d.fixed32(uint32(k.v))
	case protoreflect.Fixed64Kind, protoreflect.Sfixed64Kind:
		d.fixed64(k.v)
	default:
		d.varint(k.v)
	}
}
