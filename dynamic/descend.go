package dynamic

import (
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// descend edits inside singular message field f of v along p[i:]. The live
// records of f become one record, at the place of the last; dead records
// and oneof siblings are dropped when setting.
func (w *editor) descend(dst []byte, v Value, f *Field, i int) ([]byte, error) {
	s, err := v.scanLevel(f)
	if err != nil {
		return dst, wrapWire(err, v.base, w.p, i)
	}
	if s.live == 0 && w.del {
		return append(dst, v.b...), nil
	}
	c := copier{b: v.b}
	it := v.iter()
	for it.Next() {
		r := it.Field()
		isF := r.Num == f.Num && f.accepts(r.Type)
		switch {
		case isF && s.live > 0 && r.Start == s.lastLive.Start:
			dst = append(dst, v.b[c.from:r.Start]...)
			c.from = r.End
			if dst, err = w.rewriteMerged(dst, v, f, s, i); err != nil {
				return dst, err
			}
		case isF && (r.Start > s.lastSib || !w.del):
			dst = c.skip(dst, r) // a live record merged into the last one, or a dead one
		case !w.del && v.sibling(f, r.Num, r.Type):
			dst = c.skip(dst, r)
		}
	}
	dst = c.rest(dst)
	if s.live == 0 {
		return w.nested(dst, f, Value{t: f.Message}, nil, i)
	}
	return dst, nil
}

// rewriteMerged writes the record of f that replaces its live records.
func (w *editor) rewriteMerged(dst []byte, v Value, f *Field, s levelScan, i int) ([]byte, error) {
	r := s.lastLive
	if s.live == 1 {
		return w.nested(dst, f, v.sub(f.Message, r.Value, r.ValueEnd), v.b[r.Start:r.TagEnd], i)
	}
	merged, _, err := v.message(f, w.p, i)
	if err != nil {
		return dst, err
	}
	return w.nested(dst, f, merged, nil, i)
}

// nested appends a record of message field f whose payload is sub edited
// along p[i:]. tag is the original tag bytes, or nil for a new record.
func (w *editor) nested(dst []byte, f *Field, sub Value, tag []byte, i int) ([]byte, error) {
	if f.Kind == protoreflect.GroupKind {
		dst = protowire.AppendTag(dst, f.Num, protowire.StartGroupType)
		dst, err := w.message(dst, sub, i)
		return protowire.AppendTag(dst, f.Num, protowire.EndGroupType), err
	}
	if tag == nil {
		dst = protowire.AppendTag(dst, f.Num, protowire.BytesType)
	} else {
		dst = append(dst, tag...)
	}
	reserved := protowire.SizeVarint(uint64(len(sub.b)))
	lenAt := len(dst)
	var pad [10]byte
	dst = append(dst, pad[:reserved]...)
	dst, err := w.sub(dst, sub, i)
	if err != nil {
		return dst, err
	}
	return endLen(dst, lenAt, reserved), nil
}

// sub edits the message sub along p[i:], which starts with a field step.
func (w *editor) sub(dst []byte, sub Value, i int) ([]byte, error) {
	if i >= len(w.p) || w.p[i].Kind != StepField {
		return dst, pathError(w.p, i+1, "want a field")
	}
	return w.message(dst, sub, i)
}
