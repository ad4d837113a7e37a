package transcode

import (
	"github.com/rpckit/rpckit/thrift/dynamic"
)

// list converts a JSON array to a list or set. Its header is written
// ahead for an empty one and rewritten with the count at the end.
func (d *decoder) list(t *dynamic.Type) error {
	if d.skipWS() != '[' {
		return d.errUnexpected("'[' of a " + t.Name())
	}
	if err := d.enter(); err != nil {
		return err
	}
	d.pos++
	pos := len(d.out)
	d.set(d.p.AppendListHeader(d.out, t.Elem.Wire, 0))
	reserved := len(d.out) - pos
	n := 0
	if d.skipWS() == ']' {
		d.pos++
	} else {
		for {
			if err := d.value(t.Elem); err != nil {
				return inIndex(err, n)
			}
			n++
			if more, err := d.next(']'); err != nil || !more {
				if err != nil {
					return err
				}
				break
			}
		}
	}
	var h [8]byte
	d.fixHeader(pos, reserved, d.p.AppendListHeader(h[:0], t.Elem.Wire, n))
	d.depth++
	return nil
}

// mapValue converts a map: a JSON object when its keys are scalars, else
// an array of {"key":...,"value":...} objects.
func (d *decoder) mapValue(t *dynamic.Type) error {
	if err := d.enter(); err != nil {
		return err
	}
	pos := len(d.out)
	d.set(d.p.AppendMapHeader(d.out, t.Key.Wire, t.Elem.Wire, 1))
	reserved := len(d.out) - pos
	var n int
	var err error
	if scalarKey(t.Key.Kind) {
		n, err = d.objectMap(t)
	} else {
		n, err = d.entryMap(t)
	}
	if err != nil {
		return err
	}
	var h [8]byte
	d.fixHeader(pos, reserved, d.p.AppendMapHeader(h[:0], t.Key.Wire, t.Elem.Wire, n))
	d.depth++
	return nil
}

func (d *decoder) objectMap(t *dynamic.Type) (int, error) {
	if d.skipWS() != '{' {
		return 0, d.errUnexpected("'{' of a " + t.Name())
	}
	d.pos++
	if d.skipWS() == '}' {
		d.pos++
		return 0, nil
	}
	for n := 0; ; n++ {
		if d.skipWS() != '"' {
			return 0, d.errUnexpected("a string key")
		}
		keyOff := d.pos
		s, err := d.scanString()
		if err != nil {
			return 0, err
		}
		if err := d.fromString(t.Key, s, keyOff); err != nil {
			return 0, inIndex(err, n)
		}
		if err := d.colon(); err != nil {
			return 0, err
		}
		if err := d.value(t.Elem); err != nil {
			return 0, inKey(err, string(d.in[keyOff:s.End+1]))
		}
		if more, err := d.next('}'); err != nil || !more {
			return n + 1, err
		}
	}
}

// entryMap converts an array of {"key":K,"value":V} objects (members in
// either order, both required).
func (d *decoder) entryMap(t *dynamic.Type) (int, error) {
	if d.skipWS() != '[' {
		return 0, d.errUnexpected("'[' of a " + t.Name() + " (a list of key-value objects)")
	}
	d.pos++
	if d.skipWS() == ']' {
		d.pos++
		return 0, nil
	}
	for n := 0; ; n++ {
		if err := d.entry(t); err != nil {
			return 0, inIndex(err, n)
		}
		if more, err := d.next(']'); err != nil || !more {
			return n + 1, err
		}
	}
}

// entry converts one {"key":K,"value":V} object. The value, when it comes
// first, is converted into the output and moved behind the key after.
func (d *decoder) entry(t *dynamic.Type) error {
	start := d.pos
	if d.skipWS() != '{' {
		return d.errUnexpected("'{' of a map entry")
	}
	d.pos++
	pos := len(d.out)
	keyAt, valAt := -1, -1
	for {
		if d.skipWS() != '"' {
			return d.errUnexpected(`"key" or "value"`)
		}
		keyOff := d.pos
		s, err := d.scanString()
		if err != nil {
			return err
		}
		if err := d.colon(); err != nil {
			return err
		}
		at := len(d.out)
		switch name := string(d.stringValue(s)); {
		case name == "key" && keyAt < 0:
			keyAt, err = at, in(d.value(t.Key), "key")
		case name == "value" && valAt < 0:
			valAt, err = at, in(d.value(t.Elem), "value")
		default:
			return d.errAt(keyOff, "unexpected member "+quoteBytes(d.stringValue(s))+" in a map entry")
		}
		if err != nil {
			return err
		}
		if more, err := d.next('}'); err != nil || !more {
			if err != nil {
				return err
			}
			break
		}
	}
	if keyAt < 0 || valAt < 0 {
		return d.errAt(start, `a map entry needs both "key" and "value"`)
	}
	if valAt < keyAt { // value first: rotate the key in front of it
		rotate(d.out[pos:], keyAt-pos)
	}
	return nil
}

// rotate moves b[k:] in front of b[:k], in place.
func rotate(b []byte, k int) {
	reverse(b[:k])
	reverse(b[k:])
	reverse(b)
}

func reverse(b []byte) {
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
}
