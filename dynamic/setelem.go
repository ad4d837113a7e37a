package dynamic

import (
	"github.com/rpckit/rpckit/wire"
	"google.golang.org/protobuf/encoding/protowire"
)

// listElem edits element p[i] of list f.
func (w *editor) listElem(dst []byte, v Value, f *Field, i int) ([]byte, error) {
	if w.p[i].Kind != StepIndex {
		return dst, pathError(w.p, i+1, "a list takes an index")
	}
	last := i+1 == len(w.p)
	if !last && !f.isMessage() {
		return dst, pathError(w.p, i+2, "not a message")
	}
	want, idx := w.p[i].Index, 0
	c := copier{b: v.b}
	it := v.iter()
	for it.Next() {
		r := it.Field()
		if r.Num != f.Num || !f.accepts(r.Type) {
			continue
		}
		n := 1
		if f.Packable && r.Type == protowire.BytesType {
			var err error
			if n, err = wire.CountPacked(v.b, r.Value, r.ValueEnd, f.WireType); err != nil {
				return dst, wrapWire(err, v.base, w.p, i)
			}
		}
		if want >= idx+n {
			idx += n
			continue
		}
		dst = c.skip(dst, r)
		dst, err := w.replaceElem(dst, v, f, r, want-idx, i)
		if err != nil {
			return dst, err
		}
		return c.rest(dst), nil
	}
	if err := it.Err(); err != nil {
		return dst, wrapWire(err, v.base, w.p, i)
	}
	return dst, pathError(w.p, i+1, "index out of range")
}

// replaceElem writes what replaces record r, which holds element k of the
// run (0 for unpacked records).
func (w *editor) replaceElem(dst []byte, v Value, f *Field, r wire.Field, k, i int) ([]byte, error) {
	switch {
	case i+1 < len(w.p):
		return w.nested(dst, f, v.sub(f.Message, r.Value, r.ValueEnd), v.b[r.Start:r.TagEnd], i+1)
	case f.Packable && r.Type == protowire.BytesType:
		return w.packedRun(dst, v, f, r, k)
	case w.del:
		return dst, nil
	}
	return appendRecord(dst, f, w.val)
}

// packedRun rewrites a packed run with element k replaced or removed.
func (w *editor) packedRun(dst []byte, v Value, f *Field, r wire.Field, k int) ([]byte, error) {
	start, end := r.Value, r.Value
	for j := 0; j <= k; j++ {
		start = end
		_, next, err := wire.NextPacked(v.b, end, r.ValueEnd, f.WireType)
		if err != nil {
			return dst, wrapWire(err, v.base, w.p, len(w.p))
		}
		end = next
	}
	dst = append(dst, v.b[r.Start:r.TagEnd]...)
	lenAt := len(dst)
	dst = append(dst, 0)
	dst = append(dst, v.b[r.Value:start]...)
	if !w.del {
		var err error
		if dst, err = appendScalar(dst, f, w.val); err != nil {
			return dst, err
		}
	}
	dst = append(dst, v.b[end:r.ValueEnd]...)
	return endLen(dst, lenAt, 1), nil
}

// mapEntry edits entry p[i] of map f.
func (w *editor) mapEntry(dst []byte, v Value, f *Field, i int) ([]byte, error) {
	k := w.p[i].Key
	if !keyFits(f.MapKey, k) {
		return dst, pathError(w.p, i+1, "key "+k.String()+" does not fit a "+f.MapKey.Kind.String()+" key")
	}
	live, found, err := v.findEntry(f, k, w.p, i+1)
	if err != nil {
		return dst, err
	}
	last := i+1 == len(w.p)
	if !last && !found && w.del {
		return append(dst, v.b...), nil
	}
	c := copier{b: v.b}
	it := v.iter()
	for it.Next() {
		r := it.Field()
		if r.Num != f.Num || r.Type != protowire.BytesType {
			continue
		}
		key, err := v.sub(f.Message, r.Value, r.ValueEnd).scalar(f.MapKey, w.p, i+1)
		if err != nil || !keyEquals(key, k) {
			continue
		}
		dst = c.skip(dst, r)
		if !last && r.Start == live.Start {
			if dst, err = w.entry(dst, v.sub(f.Message, r.Value, r.ValueEnd), f, k, i); err != nil {
				return dst, err
			}
		}
	}
	dst = c.rest(dst)
	if last && !w.del || !last && !found {
		return w.entry(dst, Value{t: f.Message}, f, k, i)
	}
	return dst, nil
}

// entry appends a map entry of f for key k: the entry e edited along
// p[i+1:], or a new entry holding the value to set.
func (w *editor) entry(dst []byte, e Value, f *Field, k Key, i int) ([]byte, error) {
	dst = protowire.AppendTag(dst, f.Num, protowire.BytesType)
	lenAt := len(dst)
	dst = append(dst, 0)
	var err error
	switch {
	case i+1 < len(w.p):
		if len(e.b) == 0 {
			dst, err = appendKey(dst, f.MapKey, k)
		}
		if err == nil {
			dst, err = w.field(dst, e, f.MapValue, i+1)
		}
	default:
		if dst, err = appendKey(dst, f.MapKey, k); err == nil {
			dst, err = appendRecord(dst, f.MapValue, w.val)
		}
	}
	return endLen(dst, lenAt, 1), err
}
