package dynamic

import (
	"github.com/rpckit/rpckit/wire"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Keep appends to dst v's message trimmed to the fields of fm, as
// google.protobuf.FieldMask semantics say: selected fields are kept whole,
// messages on the way to a selected field are kept (possibly empty) when
// present, everything else is dropped, unknown fields included.
func (v Value) Keep(dst []byte, fm *FieldMask) ([]byte, error) {
	dst = reserve(dst, len(v.b))
	return trim(dst, v, fm.root, true)
}

// Mask appends to dst v's message without the fields of fm, for
// redaction: the rest, unknown fields included, is kept.
func (v Value) Mask(dst []byte, fm *FieldMask) ([]byte, error) {
	dst = reserve(dst, len(v.b))
	return trim(dst, v, fm.root, false)
}

// trim copies the records of v that the mask keeps (keep) or does not
// drop (!keep), rewriting the messages the mask reaches into.
func trim(dst []byte, v Value, n *maskNode, keep bool) ([]byte, error) {
	var lvs liveness
	used, err := v.liveness(n, &lvs)
	if err != nil {
		return dst, err
	}
	lv := &lvs
	if !used {
		lv = nil
	}
	it := v.iter()
	from := 0
	for it.Next() {
		r := it.Field()
		c, act := classify(v, n, lv, r, keep)
		if act == actCopy {
			continue
		}
		dst = append(dst, v.b[from:r.Start]...)
		from = r.End
		if act == actRewrite {
			if dst, err = rewriteChild(dst, v, c, lv != nil && lv.split(c), r, keep); err != nil {
				return dst, err
			}
		}
	}
	if err := it.Err(); err != nil {
		return dst, wrapWire(err, v.base, nil, 0)
	}
	return append(dst, v.b[from:]...), nil
}

const (
	actCopy = iota
	actDrop
	actRewrite
)

// classify decides what becomes of record r.
func classify(v Value, n *maskNode, lv *liveness, r wire.Field, keep bool) (*maskChild, int) {
	c := n.get(r.Num)
	known := c != nil && c.f.accepts(r.Type)
	switch {
	case lv != nil && lv.dead(v.t, r):
		return c, actDrop
	case !known && keep:
		return c, actDrop
	case !known:
		return c, actCopy
	case c.leaf && keep:
		return c, actCopy
	case c.leaf:
		return c, actDrop
	case lv != nil && lv.merged(c, r):
		return c, actDrop // folded into the last record of c
	}
	return c, actRewrite
}

// rewriteChild writes record r of c's field with its messages trimmed;
// split says the field's records are merged into this one.
func rewriteChild(dst []byte, v Value, c *maskChild, split bool, r wire.Field, keep bool) ([]byte, error) {
	f := c.f
	payload := v.sub(nil, r.Value, r.ValueEnd)
	if split {
		merged, _, err := v.message(f, nil, 0)
		if err != nil {
			return dst, err
		}
		payload = merged
	}
	if f.Kind == protoreflect.GroupKind {
		dst = append(dst, v.b[r.Start:r.Value]...)
		payload.t = f.Message
		dst, err := trim(dst, payload, c.sub, keep)
		return append(dst, v.b[r.ValueEnd:r.End]...), err
	}
	dst = append(dst, v.b[r.Start:r.TagEnd]...)
	reserved := protowire.SizeVarint(uint64(len(payload.b)))
	lenAt := len(dst)
	var pad [10]byte
	dst = append(dst, pad[:reserved]...)
	var err error
	if f.Map {
		payload.t = f.Message
		dst, err = trimEntry(dst, payload, c, keep)
	} else {
		payload.t = f.Message
		dst, err = trim(dst, payload, c.sub, keep)
	}
	return endLen(dst, lenAt, reserved), err
}

// trimEntry copies a map entry with its value message trimmed.
func trimEntry(dst []byte, e Value, c *maskChild, keep bool) ([]byte, error) {
	vf := c.f.MapValue
	val, found, err := e.message(vf, nil, 0)
	if err != nil {
		return dst, err
	}
	if dst, err = e.dropField(dst, vf, false, -1); err != nil || !found {
		return dst, err
	}
	dst = protowire.AppendTag(dst, vf.Num, protowire.BytesType)
	lenAt := len(dst)
	reserved := protowire.SizeVarint(uint64(len(val.b)))
	var pad [10]byte
	dst = append(dst, pad[:reserved]...)
	dst, err = trim(dst, val, c.sub, keep)
	return endLen(dst, lenAt, reserved), err
}
