package dynamic

import (
	"github.com/rpckit/rpckit/thrift/wire"
)

// RangeFields calls fn with each field of the struct v that its Type
// knows, in wire order, until fn returns false. Fields the Type does not
// know, or of another wire type, are skipped.
func (v Value) RangeFields(fn func(f *Field, val Value) bool) error {
	if !v.ok || !v.t.IsStruct() {
		return nil
	}
	it := wire.NewIter(v.p, v.b, v.start)
	for it.Next() {
		r := it.Field()
		f := v.t.FieldByID(r.ID)
		if f == nil || f.Type.Wire != r.Type {
			continue
		}
		val := Value{t: f.Type, p: v.p, b: v.b, start: r.Value, end: r.End, ok: true}
		if r.Type == wire.Bool && v.p == wire.Compact {
			val.hb, val.bv = true, r.Bool
		}
		if !fn(f, val) {
			return nil
		}
	}
	return wrapIter(it.Err())
}

// RangeElems calls fn with each element of the list or set v, in order,
// until fn returns false.
func (v Value) RangeElems(fn func(i int, e Value) bool) error {
	if !v.ok || (v.t.Wire != wire.List && v.t.Wire != wire.Set) {
		return nil
	}
	et, n, off, err := v.p.ConsumeListHeader(v.b, v.start)
	if err == nil && n > 0 && et != v.t.Elem.Wire {
		return misfit(v.start, "", "elements of wire type "+et.String()+", want "+v.t.Elem.Wire.String())
	}
	for i := 0; i < n && err == nil; i++ {
		var end int
		if end, err = v.p.Skip(v.b, off, et); err == nil {
			if !fn(i, Value{t: v.t.Elem, p: v.p, b: v.b, start: off, end: end, ok: true}) {
				return nil
			}
			off = end
		}
	}
	return wrapIter(err)
}

// RangeEntries calls fn with the key and value of each entry of the map
// v, in wire order, until fn returns false.
func (v Value) RangeEntries(fn func(key, val Value) bool) error {
	if !v.ok || v.t.Wire != wire.Map {
		return nil
	}
	kt, vt, n, off, err := v.p.ConsumeMapHeader(v.b, v.start)
	if err == nil && n > 0 && (kt != v.t.Key.Wire || vt != v.t.Elem.Wire) {
		return misfit(v.start, "", "entries of wire types "+kt.String()+", "+vt.String()+", want "+v.t.Key.Wire.String()+", "+v.t.Elem.Wire.String())
	}
	for i := 0; i < n && err == nil; i++ {
		var kend, vend int
		if kend, err = v.p.Skip(v.b, off, kt); err != nil {
			break
		}
		if vend, err = v.p.Skip(v.b, kend, vt); err != nil {
			break
		}
		k := Value{t: v.t.Key, p: v.p, b: v.b, start: off, end: kend, ok: true}
		if !fn(k, Value{t: v.t.Elem, p: v.p, b: v.b, start: kend, end: vend, ok: true}) {
			return nil
		}
		off = vend
	}
	return wrapIter(err)
}

func wrapIter(err error) error {
	if err == nil {
		return nil
	}
	return wrapWire(err, nil, 0)
}
