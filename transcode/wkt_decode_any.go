package transcode

import (
	"github.com/rpckit/rpckit/dynamic"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// anyValue parses google.protobuf.Any: an object whose "@type" key, which
// may come anywhere in it, names the type of the rest of the object (or,
// for a well-known type with a JSON form of its own, of its "value" key).
// Like protojson's, the value bytes are the deterministic encoding of the
// embedded message, and required fields are not checked inside it.
func (d *decoder) anyValue(t *dynamic.Type) error {
	if d.skipWS() != '{' {
		return d.errUnexpected(d.pos)
	}
	open := d.pos
	url, urlOff, fields, err := d.findTypeURL()
	switch {
	case err != nil:
		return err
	case fields == 0:
		return d.skipValue(0)
	case url == nil && d.discard:
		return d.skipValue(0)
	case url == nil:
		return d.errAt(open, `missing "@type" field`)
	}
	mt, err := d.resolver().FindMessageByURL(string(url))
	if err != nil {
		return d.errWrap(urlOff, err, "unable to resolve %s: %v", d.tokenText(urlOff), err)
	}
	et := t.Cache().Type(mt.Descriptor())
	d.out = append(d.out, 1<<3|byte(protowire.BytesType))
	d.varint(uint64(len(url)))
	d.set(append(d.out, url...))
	mark := len(d.out)
	d.out = append(d.out, 2<<3|byte(protowire.BytesType))
	body := d.openLen()
	d.noReq++
	if wk := wktOf(et); wk != wktNone {
		err = d.anyWellKnown(et, wk)
	} else {
		err = d.message(et, true)
	}
	d.noReq--
	if err != nil {
		return err
	}
	return d.canonicalAny(mt, mark, body, open)
}

// findTypeURL reads ahead through the object at d.pos for its "@type"
// key, leaving d.pos where it was. It returns the type URL (nil when
// there is none), its offset and the number of keys of the object.
func (d *decoder) findTypeURL() (url []byte, off, fields int, err error) {
	save := d.pos
	defer func() { d.pos = save }()
	d.pos++
	for c := d.skipWS(); c != '}'; {
		if c != '"' {
			return nil, 0, 0, d.errUnexpected(d.pos)
		}
		keyOff := d.pos
		ks, err := d.scanString()
		if err != nil {
			return nil, 0, 0, err
		}
		if err := d.colon(); err != nil {
			return nil, 0, 0, err
		}
		fields++
		if string(d.stringValue(ks)) != "@type" {
			err = d.skipValue(0)
		} else if url != nil {
			err = d.errAt(keyOff, `duplicate "@type" field`)
		} else {
			url, off, err = d.typeURL()
		}
		if err != nil {
			return nil, 0, 0, err
		}
		if c = d.skipWS(); c == ',' {
			d.pos++
			if c = d.skipWS(); c == '}' {
				return nil, 0, 0, d.errUnexpected(d.pos)
			}
		} else if c != '}' {
			return nil, 0, 0, d.errUnexpected(d.pos)
		}
	}
	return url, off, fields, nil
}

// typeURL reads the value of "@type": a non-empty string.
func (d *decoder) typeURL() ([]byte, int, error) {
	if d.skipWS() != '"' {
		off := d.pos
		if err := d.skipValue(0); err != nil {
			return nil, off, err
		}
		return nil, off, d.errAt(off, "@type field value is not a string: %s", d.tokenText(off))
	}
	off := d.pos
	s, err := d.scanString()
	if err != nil {
		return nil, off, err
	}
	url := append([]byte(nil), d.stringValue(s)...)
	if len(url) == 0 {
		return nil, off, d.errAt(off, "@type field contains empty value")
	}
	return url, off, nil
}

// anyWellKnown parses the object of an Any holding a well-known type:
// "@type", and "value" with the type's JSON form (which Empty may omit).
func (d *decoder) anyWellKnown(t *dynamic.Type, wk wellKnown) error {
	d.skipWS()
	d.pos++
	found := false
	for c := d.skipWS(); c != '}'; {
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
		switch string(d.stringValue(ks)) {
		case "@type":
			err = d.skipValue(0)
		case "value":
			if found {
				return d.errAt(keyOff, `duplicate "value" field`)
			}
			found = true
			if err = d.wellKnown(t, wk); err != nil && err != (shortInput{}) {
				d.segs = append(d.segs, ".value")
			}
		default:
			err = d.unknown(nil, keyOff)
		}
		if err != nil {
			return err
		}
		if c = d.skipWS(); c == ',' {
			d.pos++
			c = d.skipWS()
		}
	}
	if !found && wk != wktEmpty {
		return d.errAt(d.pos, `missing "value" field`)
	}
	d.pos++
	return nil
}

// canonicalAny replaces the value written from body on by its
// deterministic encoding (fields in number order, map entries sorted),
// the bytes protojson puts in Any.value, or drops it when empty.
func (d *decoder) canonicalAny(mt protoreflect.MessageType, mark, body, off int) error {
	m := mt.New().Interface()
	uo := proto.UnmarshalOptions{AllowPartial: true, Resolver: d.resolver()}
	if err := uo.Unmarshal(d.out[body:], m); err != nil {
		return d.errWrap(off, err, "google.protobuf.Any value: %v", err)
	}
	d.out = d.out[:mark]
	mo := proto.MarshalOptions{AllowPartial: true, Deterministic: true}
	n := mo.Size(m)
	if n == 0 {
		return nil
	}
	d.out = append(d.out, 2<<3|byte(protowire.BytesType))
	d.varint(uint64(n))
	var err error
	if d.out, err = mo.MarshalAppend(d.out, m); err != nil {
		return d.errWrap(off, err, "google.protobuf.Any value: %v", err)
	}
	return nil
}
