package dynamic

import (
	"github.com/rpckit/rpckit/internal/pathsyntax"
	"github.com/rpckit/rpckit/thrift/idl"
	"github.com/rpckit/rpckit/thrift/wire"
)

// site is where the last step of a walk landed: what Set and Delete need
// to splice there.
type site struct {
	kind  StepKind
	found bool
	// A field: its record and the id of the field before it, or where the
	// struct's Stop is and the id of its last field.
	rec  wire.Field
	prev int16
	stop int
	// An element or entry: the container's header and body offsets, its
	// count and wire types, where the element (a map entry's key) starts
	// and where the container ends when the element was not found.
	hdr, body, n int
	kt, et       wire.Type
	elem, end    int
}

// Get returns the value at p. A value that is absent from the bytes (or
// whose struct is) reads as absent, with the Type the path names; a path
// that does not fit the Type is a *PathError, bytes that are malformed on
// the way an *Error. A struct field that repeats, which no Thrift writer
// produces (Validate rejects it), is read at its first occurrence; so is a
// map key that repeats. Get allocates nothing but its errors.
func (v Value) Get(p Path) (Value, error) {
	var s site
	return v.walk(p, &s)
}

func (v Value) walk(p Path, s *site) (Value, error) {
	cur := v
	for i := range p {
		var err error
		if cur, err = cur.step(p, i, s); err != nil {
			return Value{}, err
		}
	}
	return cur, nil
}

// step takes step i of p from v.
func (v Value) step(p Path, i int, s *site) (Value, error) {
	st := &p[i]
	switch k := v.t.Kind; {
	case k.IsStruct():
		if st.Kind != StepField {
			return Value{}, pathError(p, i+1, "want a field of "+v.t.Name())
		}
		f := v.t.lookup(st)
		if f == nil {
			return Value{}, pathError(p, i+1, noField(v.t, *st))
		}
		if !v.ok {
			return v.absent(f.Type), nil
		}
		return v.field(f, p, i, s)
	case k == idl.ListKind || k == idl.SetKind:
		if st.Kind != StepIndex {
			return Value{}, pathError(p, i+1, "want an index into "+v.t.Name())
		}
		if !v.ok {
			return v.absent(v.t.Elem), nil
		}
		return v.index(st.Index, p, i, s)
	case k == idl.MapKind:
		if st.Kind == StepField {
			return Value{}, pathError(p, i+1, "want a key of "+v.t.Name())
		}
		if msg := keyMisfit(v.t.Key, st.Key); msg != "" {
			return Value{}, pathError(p, i+1, msg)
		}
		if !v.ok {
			return v.absent(v.t.Elem), nil
		}
		return v.entry(st.Key, p, i, s)
	}
	return Value{}, pathError(p, i, "cannot step into "+v.t.Name())
}

func (t *Type) lookup(st *Step) *Field {
	if st.Name != "" {
		return t.FieldByName(st.Name)
	}
	return t.FieldByID(st.ID)
}

// field finds field f in the struct v. A record of another wire type is
// skipped, as the generated code skips it.
func (v Value) field(f *Field, p Path, i int, s *site) (Value, error) {
	it := wire.NewIter(v.p, v.b, v.start)
	last := int16(0)
	for it.Next() {
		r := it.Field()
		if r.ID == f.ID && r.Type == f.Type.Wire {
			*s = site{kind: StepField, found: true, rec: r, prev: last}
			out := Value{t: f.Type, p: v.p, b: v.b, start: r.Value, end: r.End, ok: true}
			if r.Type == wire.Bool && v.p == wire.Compact {
				out.hb, out.bv = true, r.Bool
			}
			return out, nil
		}
		last = r.ID
	}
	if err := it.Err(); err != nil {
		return Value{}, wrapWire(err, p, i+1)
	}
	*s = site{kind: StepField, stop: it.Offset() - 1, prev: last}
	s.rec.ID, s.rec.Type = f.ID, f.Type.Wire
	return v.absent(f.Type), nil
}

// index finds element idx of the list or set v.
func (v Value) index(idx int, p Path, i int, s *site) (Value, error) {
	et, n, off, err := v.p.ConsumeListHeader(v.b, v.start)
	if err != nil {
		return Value{}, wrapWire(err, p, i)
	}
	elem := v.t.Elem
	if n > 0 && et != elem.Wire {
		return Value{}, misfit(v.start, p[:i].String(), "elements of type "+et.String()+", want "+elem.Wire.String())
	}
	if n == 0 {
		et = elem.Wire
	}
	*s = site{kind: StepIndex, hdr: v.start, body: off, n: n, et: et}
	if idx >= n {
		return v.absent(elem), nil
	}
	if off, err = v.skipN(off, et, idx); err == nil {
		s.elem = off
		var end int
		if end, err = v.p.Skip(v.b, off, et); err == nil {
			s.found = true
			return Value{t: elem, p: v.p, b: v.b, start: off, end: end, ok: true}, nil
		}
	}
	return Value{}, wrapWire(err, p, i+1)
}

// skipN skips n values of type t from off, at once when they are of a
// fixed width.
func (v Value) skipN(off int, t wire.Type, n int) (int, error) {
	if w := fixedWidth(v.p, t); w > 0 {
		if n > (len(v.b)-off)/w {
			return 0, &wire.Error{Offset: len(v.b), Code: wire.CodeTruncated}
		}
		return off + n*w, nil
	}
	var err error
	for ; n > 0 && err == nil; n-- {
		off, err = v.p.Skip(v.b, off, t)
	}
	return off, err
}

// fixedWidth returns the width of a value of type t in protocol p, or 0
// when it varies.
func fixedWidth(p wire.Protocol, t wire.Type) int {
	switch t {
	case wire.Bool, wire.Byte:
		return 1
	case wire.Double:
		return 8
	case wire.UUID:
		return 16
	}
	if p == wire.Compact {
		return 0
	}
	switch t {
	case wire.I16:
		return 2
	case wire.I32:
		return 4
	case wire.I64:
		return 8
	}
	return 0
}

// entry finds the entry of the map v with key k.
func (v Value) entry(k Key, p Path, i int, s *site) (Value, error) {
	kt, vt, n, off, err := v.p.ConsumeMapHeader(v.b, v.start)
	if err != nil {
		return Value{}, wrapWire(err, p, i)
	}
	if n > 0 && (kt != v.t.Key.Wire || vt != v.t.Elem.Wire) {
		return Value{}, misfit(v.start, p[:i].String(), "entries of type "+kt.String()+", "+vt.String()+", want "+v.t.Key.Wire.String()+", "+v.t.Elem.Wire.String())
	}
	if n == 0 {
		kt, vt = v.t.Key.Wire, v.t.Elem.Wire
	}
	*s = site{kind: StepKey, hdr: v.start, body: off, n: n, kt: kt, et: vt}
	for j := 0; j < n; j++ {
		match, kend, err := v.matchKey(off, kt, k)
		if err != nil {
			return Value{}, wrapWire(err, p, i+1)
		}
		vend, err := v.p.Skip(v.b, kend, vt)
		if err != nil {
			return Value{}, wrapWire(err, p, i+1)
		}
		if match {
			s.found, s.elem, s.end = true, off, vend
			return Value{t: v.t.Elem, p: v.p, b: v.b, start: kend, end: vend, ok: true}, nil
		}
		off = vend
	}
	s.end = off
	return v.absent(v.t.Elem), nil
}

// matchKey reads the key of type t at off and reports whether it is k.
func (v Value) matchKey(off int, t wire.Type, k Key) (bool, int, error) {
	switch t {
	case wire.String:
		b, end, err := v.p.ConsumeBinary(v.b, off)
		return err == nil && string(b) == k.Str, end, err
	case wire.Bool:
		x, end, err := v.p.ConsumeBool(v.b, off)
		return err == nil && x == (k.Uint == 1), end, err
	case wire.Byte:
		x, end, err := v.p.ConsumeByte(v.b, off)
		return err == nil && int64(x) == k.Int, end, err
	case wire.I16:
		x, end, err := v.p.ConsumeI16(v.b, off)
		return err == nil && int64(x) == k.Int, end, err
	case wire.I32:
		x, end, err := v.p.ConsumeI32(v.b, off)
		return err == nil && int64(x) == k.Int, end, err
	case wire.I64:
		x, end, err := v.p.ConsumeI64(v.b, off)
		return err == nil && x == k.Int, end, err
	}
	end, err := v.p.Skip(v.b, off, t)
	return false, end, err
}

// keyMisfit says why k cannot be a key of type t, or "".
func keyMisfit(t *Type, k Key) string {
	switch t.Wire {
	case wire.String:
		if k.Kind == pathsyntax.String {
			return ""
		}
	case wire.Bool:
		if k.Kind == pathsyntax.Bool {
			return ""
		}
	case wire.Byte, wire.I16, wire.I32, wire.I64:
		if k.Kind == pathsyntax.Int && fitsInt(t.Wire, k.Int) {
			return ""
		}
		if k.Kind == pathsyntax.Int || k.Kind == pathsyntax.Uint {
			return "key " + k.String() + " out of the range of " + t.Name()
		}
	default:
		return "keys of type " + t.Name() + " cannot be named in a path"
	}
	return "key " + k.String() + " is not a " + t.Name()
}

// fitsInt reports whether i fits an integer of wire type t.
func fitsInt(t wire.Type, i int64) bool {
	switch t {
	case wire.Byte:
		return int64(int8(i)) == i
	case wire.I16:
		return int64(int16(i)) == i
	case wire.I32:
		return int64(int32(i)) == i
	}
	return true
}
