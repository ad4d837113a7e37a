package dynamic

import (
	"github.com/rpckit/rpckit/thrift/wire"
)

// Keep appends to dst v's struct trimmed to the struct Type to: the fields
// whose ids to declares with the same wire type are kept, the others
// dropped, and so on down every struct the kept fields hold, in lists,
// sets and maps too (Medium to MediumPart: its items become SmallParts).
// Values whose Types are the same in both are copied whole. The output is
// allocated at most once.
func (v Value) Keep(dst []byte, to *Type) ([]byte, error) {
	if !to.IsStruct() || !v.t.IsStruct() {
		return dst, &PathError{Msg: "keep trims a struct to a struct type, not " + v.t.Name() + " to " + to.Name()}
	}
	dst = reserve(dst, len(v.b)-v.start)
	n0 := len(dst)
	k := rewriter{p: v.p, b: v.b}
	dst, _, err := k.keepStruct(dst, v.start, v.t, to, 1)
	if err != nil {
		return dst[:n0], err
	}
	return dst, nil
}

// rewriter copies a struct's bytes while dropping or trimming its fields.
type rewriter struct {
	p wire.Protocol
	b []byte
	// only: a FieldMask names the fields to keep (KeepPaths), not those
	// to drop (Mask).
	only bool
}

// action is what happens to a field: copied, dropped, or rewritten.
type action uint8

const (
	copyField action = iota
	dropField
	rewriteField
)

// fields copies the struct at off field by field, asking decide what to do
// with each and calling rewrite for the fields to rewrite; headers are
// re-encoded against the fields written, as compact's id deltas need.
func (k *rewriter) fields(dst []byte, off, depth int, decide func(h wire.FieldHeader) action,
	rewrite func(dst []byte, h wire.FieldHeader, off int) ([]byte, int, error)) ([]byte, int, error) {
	if depth > DefaultMaxDepth {
		return dst, 0, &Error{Offset: off, Code: wire.CodeDepth}
	}
	read, written := int16(0), int16(0)
	for {
		h, voff, err := k.p.ConsumeFieldHeader(k.b, off, read)
		if err != nil {
			return dst, 0, wrapWire(err, nil, 0)
		}
		if h.Type == wire.Stop {
			return k.p.AppendStop(dst), voff, nil
		}
		read = h.ID
		a := decide(h)
		if a == dropField {
			if off, err = skipField(k.p, k.b, voff, h, DefaultMaxDepth-depth); err != nil {
				return dst, 0, wrapWire(err, nil, 0)
			}
			continue
		}
		if h.Type == wire.Bool && k.p == wire.Compact {
			dst, off, written = k.p.AppendBoolField(dst, h.ID, written, h.Bool), voff, h.ID
			continue
		}
		dst = k.p.AppendFieldHeader(dst, h.Type, h.ID, written)
		written = h.ID
		if a == rewriteField {
			dst, off, err = rewrite(dst, h, voff)
		} else {
			dst, off, err = k.copyValue(dst, voff, h.Type, depth)
		}
		if err != nil {
			return dst, 0, err
		}
	}
}

// copyValue copies the value of wire type t at off.
func (k *rewriter) copyValue(dst []byte, off int, t wire.Type, depth int) ([]byte, int, error) {
	end, err := k.p.SkipDepth(k.b, off, t, DefaultMaxDepth-depth)
	if err != nil {
		return dst, 0, wrapWire(err, nil, 0)
	}
	return append(dst, k.b[off:end]...), end, nil
}

func (k *rewriter) keepStruct(dst []byte, off int, from, to *Type, depth int) ([]byte, int, error) {
	decide := func(h wire.FieldHeader) action {
		tf := to.FieldByID(h.ID)
		switch {
		case tf == nil || tf.Type.Wire != h.Type:
			return dropField
		case sameShape(fieldType(from, h.ID, tf.Type), tf.Type):
			return copyField
		}
		return rewriteField
	}
	rewrite := func(dst []byte, h wire.FieldHeader, off int) ([]byte, int, error) {
		tf := to.FieldByID(h.ID)
		return k.keepValue(dst, off, fieldType(from, h.ID, tf.Type), tf.Type, depth)
	}
	return k.fields(dst, off, depth, decide, rewrite)
}

// fieldType returns the Type of field id of t, or def when t has none.
func fieldType(t *Type, id int16, def *Type) *Type {
	if f := t.FieldByID(id); f != nil && f.Type.Wire == def.Wire {
		return f.Type
	}
	return def
}

// keepValue copies the value at off of Type from, trimmed to Type to of
// the same wire type.
func (k *rewriter) keepValue(dst []byte, off int, from, to *Type, depth int) ([]byte, int, error) {
	if from == nil || from.Wire != to.Wire {
		from = to
	}
	switch {
	case sameShape(from, to):
		return k.copyValue(dst, off, to.Wire, depth)
	case to.Wire == wire.Struct:
		return k.keepStruct(dst, off, from, to, depth+1)
	case to.Wire == wire.Map:
		return k.container(dst, off, depth, to, func(dst []byte, off int) ([]byte, int, error) {
			dst, off, err := k.keepValue(dst, off, from.Key, to.Key, depth+1)
			if err != nil {
				return dst, 0, err
			}
			return k.keepValue(dst, off, from.Elem, to.Elem, depth+1)
		})
	}
	return k.container(dst, off, depth, to, func(dst []byte, off int) ([]byte, int, error) {
		return k.keepValue(dst, off, from.Elem, to.Elem, depth+1)
	})
}

// container copies the header of the list, set or map of Type t at off and
// calls each for every element or entry.
func (k *rewriter) container(dst []byte, off, depth int, t *Type,
	each func(dst []byte, off int) ([]byte, int, error)) ([]byte, int, error) {
	if depth >= DefaultMaxDepth {
		return dst, 0, &Error{Offset: off, Code: wire.CodeDepth}
	}
	var n, body int
	var err error
	if t.Wire == wire.Map {
		var kt, vt wire.Type
		kt, vt, n, body, err = k.p.ConsumeMapHeader(k.b, off)
		if err == nil && n > 0 && (kt != t.Key.Wire || vt != t.Elem.Wire) {
			return dst, 0, misfit(off, "", "entries of wire types "+kt.String()+", "+vt.String()+", want "+t.Key.Wire.String()+", "+t.Elem.Wire.String())
		}
	} else {
		var et wire.Type
		et, n, body, err = k.p.ConsumeListHeader(k.b, off)
		if err == nil && n > 0 && et != t.Elem.Wire {
			return dst, 0, misfit(off, "", "elements of wire type "+et.String()+", want "+t.Elem.Wire.String())
		}
	}
	if err != nil {
		return dst, 0, wrapWire(err, nil, 0)
	}
	dst = append(dst, k.b[off:body]...)
	for off = body; n > 0; n-- {
		if dst, off, err = each(dst, off); err != nil {
			return dst, 0, err
		}
	}
	return dst, off, nil
}

// sameShape reports whether values of from and to encode alike: the same
// Type, or containers of such, or the same base wire type.
func sameShape(from, to *Type) bool {
	switch {
	case from == to:
		return true
	case from.Wire != to.Wire:
		return false
	case to.Wire == wire.Struct:
		return false
	case to.Wire == wire.Map:
		return sameShape(from.Key, to.Key) && sameShape(from.Elem, to.Elem)
	case to.Wire == wire.List || to.Wire == wire.Set:
		return sameShape(from.Elem, to.Elem)
	}
	return true
}

// skipField skips the value of the field whose header h ends at off: none
// for a compact bool, which is in the header.
func skipField(p wire.Protocol, b []byte, off int, h wire.FieldHeader, maxDepth int) (int, error) {
	if h.Type == wire.Bool && p == wire.Compact {
		return off, nil
	}
	return p.SkipDepth(b, off, h.Type, maxDepth)
}
