package dynamic

import (
	"github.com/rpckit/rpckit/wire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Set appends to dst v's message with the element at p set to val, and
// returns the result. val is a scalar of the field's kind; for a message
// field it is a proto.Message or the message's encoding as bytes. Missing
// parent messages and map entries are created; a list index must exist.
// Like protobuf-go, setting a oneof member clears the others. dst is
// allocated at most once, when it lacks capacity.
func (v Value) Set(dst []byte, p Path, val protoreflect.Value) ([]byte, error) {
	return v.edit(dst, p, val, false)
}

// Delete appends to dst v's message with the element at p removed: a
// field cleared, a list element or a map entry dropped.
func (v Value) Delete(dst []byte, p Path) ([]byte, error) {
	return v.edit(dst, p, protoreflect.Value{}, true)
}

func (v Value) edit(dst []byte, p Path, val protoreflect.Value, del bool) ([]byte, error) {
	if len(p) == 0 {
		return dst, &PathError{Msg: "empty path"}
	}
	dst = reserve(dst, len(v.b)+64)
	w := editor{p: p, val: val, del: del}
	return w.message(dst, v, 0)
}

func reserve(dst []byte, n int) []byte {
	if cap(dst)-len(dst) >= n {
		return dst
	}
	out := make([]byte, len(dst), len(dst)+n+n/8)
	copy(out, dst)
	return out
}

// editor rewrites the messages along a path, copying everything else.
type editor struct {
	p   Path
	val protoreflect.Value
	del bool
}

// message appends v edited at step i, a field step.
func (w *editor) message(dst []byte, v Value, i int) ([]byte, error) {
	f, err := v.t.resolve(w.p, i)
	if err != nil {
		return dst, err
	}
	return w.field(dst, v, f, i+1)
}

// field appends v edited at field f, with p[i:] the steps after f.
func (w *editor) field(dst []byte, v Value, f *Field, i int) ([]byte, error) {
	switch {
	case i == len(w.p):
		return w.whole(dst, v, f)
	case w.p[i].Kind != StepField && f.List:
		return w.listElem(dst, v, f, i)
	case w.p[i].Kind != StepField && f.Map:
		return w.mapEntry(dst, v, f, i)
	case f.isMessage() && !f.List && !f.Map:
		return w.descend(dst, v, f, i)
	}
	return dst, pathError(w.p, i+1, "not a message")
}

// levelScan is what a pass over one message finds about field f.
type levelScan struct {
	lastF, lastSib int // starts of the last records of f and of its oneof siblings
	live           int // records of f after the last sibling
	lastLive       wire.Field
}

func (v Value) scanLevel(f *Field) (levelScan, error) {
	s := levelScan{lastF: -1, lastSib: -1}
	it := v.iter()
	for it.Next() {
		r := it.Field()
		switch {
		case r.Num == f.Num && f.accepts(r.Type):
			s.lastF, s.lastLive = r.Start, r
			s.live++
		case v.sibling(f, r.Num, r.Type):
			s.lastSib, s.live = r.Start, 0
		}
	}
	return s, it.Err()
}

// copier copies the records of a message that an edit keeps, in runs.
type copier struct {
	b    []byte
	from int
}

// skip copies up to r and drops r.
func (c *copier) skip(dst []byte, r wire.Field) []byte {
	dst = append(dst, c.b[c.from:r.Start]...)
	c.from = r.End
	return dst
}

func (c *copier) rest(dst []byte) []byte { return append(dst, c.b[c.from:]...) }

// whole sets or clears field f of v.
func (w *editor) whole(dst []byte, v Value, f *Field) ([]byte, error) {
	if !w.del && (f.List || f.Map) {
		return dst, pathError(w.p, len(w.p), "set a list element or map entry, not the whole field")
	}
	s, err := v.scanLevel(f)
	if err != nil {
		return dst, wrapWire(err, v.base, w.p, len(w.p))
	}
	dropSiblings := !w.del || (f.Oneof >= 0 && s.lastF > s.lastSib)
	dst, err = v.dropField(dst, f, dropSiblings, -1)
	if err != nil || w.del {
		return dst, err
	}
	return appendRecord(dst, f, w.val)
}

// dropField copies v without the records of f (and of its oneof siblings
// when siblings is set) that start before limit (everywhere if negative).
func (v Value) dropField(dst []byte, f *Field, siblings bool, limit int) ([]byte, error) {
	c := copier{b: v.b}
	it := v.iter()
	for it.Next() {
		r := it.Field()
		if limit >= 0 && r.Start >= limit {
			break
		}
		if (r.Num == f.Num && f.accepts(r.Type)) || (siblings && v.sibling(f, r.Num, r.Type)) {
			dst = c.skip(dst, r)
		}
	}
	return c.rest(dst), it.Err()
}
