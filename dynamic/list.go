package dynamic

import (
	"github.com/rpckit/rpckit/wire"
	"google.golang.org/protobuf/encoding/protowire"
)

// List is a repeated field of a message: its elements are every record of
// the field, packed runs expanded, in order.
type List struct {
	f *Field
	v Value
}

// Field returns the list's field.
func (l List) Field() *Field { return l.f }

// Range calls fn with each element in order until fn returns false.
func (l List) Range(fn func(i int, e Elem) bool) error {
	if l.f == nil {
		return nil
	}
	_, err := l.v.listWalk(l.f, -1, fn, nil, 0)
	return err
}

// Len returns the number of elements.
func (l List) Len() (int, error) {
	n := 0
	err := l.Range(func(int, Elem) bool { n++; return true })
	return n, err
}

// Get returns element i; it does not exist when i is out of range.
func (l List) Get(i int) (Elem, error) {
	if l.f == nil {
		return Elem{}, nil
	}
	return l.v.listElem(l.f, i, nil, 0)
}

// listElem returns element i of list f.
func (v Value) listElem(f *Field, i int, p Path, n int) (Elem, error) {
	out := Elem{f: f, kind: kindOf(f)}
	if f.isMessage() {
		out.msg = Value{t: f.Message}
	}
	if i < 0 {
		return out, nil
	}
	_, err := v.listWalk(f, i, func(_ int, e Elem) bool { out = e; return false }, p, n)
	return out, err
}

func kindOf(f *Field) elemKind {
	if f.isMessage() {
		return elemMessage
	}
	return elemScalar
}

// listWalk visits the elements of list f from index want (all when want is
// negative), skipping packed runs that end before it.
func (v Value) listWalk(f *Field, want int, fn func(int, Elem) bool, p Path, n int) (int, error) {
	it := v.iter()
	idx := 0
	for it.Next() {
		r := it.Field()
		if r.Num != f.Num || !f.accepts(r.Type) {
			continue
		}
		var (
			more bool
			err  error
		)
		if r.Type == protowire.BytesType && f.Packable {
			idx, more, err = v.packedWalk(f, r, idx, want, fn, p, n)
		} else {
			idx, more, err = v.recordElem(f, r, idx, want, fn, p, n)
		}
		if err != nil || !more {
			return idx, err
		}
	}
	return idx, wrapWire(it.Err(), v.base, p, n)
}

func (v Value) recordElem(f *Field, r wire.Field, idx, want int, fn func(int, Elem) bool, p Path, n int) (int, bool, error) {
	if want > idx {
		return idx + 1, true, nil
	}
	var e Elem
	if f.isMessage() {
		e = Elem{f: f, kind: elemMessage, exists: true, msg: v.sub(f.Message, r.Value, r.ValueEnd)}
	} else {
		var err error
		if e, err = v.decodeScalar(f, r, p, n); err != nil {
			return idx, false, err
		}
	}
	return idx + 1, fn(idx, e), nil
}

// packedWalk visits the elements of a packed run.
func (v Value) packedWalk(f *Field, r wire.Field, idx, want int, fn func(int, Elem) bool, p Path, n int) (int, bool, error) {
	off := r.Value
	if want > idx && f.WireType != protowire.VarintType {
		size := 4
		if f.WireType == protowire.Fixed64Type {
			size = 8
		}
		skip := min(want-idx, (r.ValueEnd-r.Value)/size)
		off, idx = off+skip*size, idx+skip
	}
	for off < r.ValueEnd {
		bits, next, err := wire.NextPacked(v.b, off, r.ValueEnd, f.WireType)
		if err != nil {
			return idx, false, wrapWire(err, v.base, p, n)
		}
		off = next
		if want > idx {
			idx++
			continue
		}
		if !fn(idx, Elem{f: f, kind: elemScalar, exists: true, bits: bits}) {
			return idx + 1, false, nil
		}
		idx++
	}
	return idx, true, nil
}
