package cli

import (
	"errors"

	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/wire"
)

// recode appends to dst the struct b of Type t, in protocol from,
// re-encoded in protocol to. Thrift's wire types are the same in both
// protocols, so the bytes lead; t only gives an empty map read from the
// compact protocol, which writes no types for it, the types the binary
// one writes (values that t does not know are recoded all the same). b is
// validated first; the nesting is bounded by wire.DefaultMaxDepth.
func recode(dst []byte, t *dynamic.Type, from, to wire.Protocol, b []byte) ([]byte, error) {
	if from == to {
		return append(dst, b...), nil
	}
	r := recoder{from: from, to: to, b: b}
	dst, end, err := r.value(dst, 0, wire.Struct, t, wire.DefaultMaxDepth)
	if err == nil && end != len(b) {
		err = errors.New("bytes after the struct")
	}
	return dst, err
}

type recoder struct {
	from, to wire.Protocol
	b        []byte
}

var errRecodeDepth = errors.New("nested too deeply")

func (r *recoder) value(dst []byte, off int, t wire.Type, dt *dynamic.Type, depth int) ([]byte, int, error) {
	var err error
	switch t {
	case wire.Bool:
		var v bool
		v, off, err = r.from.ConsumeBool(r.b, off)
		return r.to.AppendBool(dst, v), off, err
	case wire.Byte:
		var v int8
		v, off, err = r.from.ConsumeByte(r.b, off)
		return r.to.AppendByte(dst, v), off, err
	case wire.I16:
		var v int16
		v, off, err = r.from.ConsumeI16(r.b, off)
		return r.to.AppendI16(dst, v), off, err
	case wire.I32:
		var v int32
		v, off, err = r.from.ConsumeI32(r.b, off)
		return r.to.AppendI32(dst, v), off, err
	case wire.I64:
		var v int64
		v, off, err = r.from.ConsumeI64(r.b, off)
		return r.to.AppendI64(dst, v), off, err
	case wire.Double:
		var v float64
		v, off, err = r.from.ConsumeDouble(r.b, off)
		return r.to.AppendDouble(dst, v), off, err
	case wire.String:
		var v []byte
		v, off, err = r.from.ConsumeBinary(r.b, off)
		return r.to.AppendBinary(dst, v), off, err
	case wire.UUID:
		var v [16]byte
		v, off, err = r.from.ConsumeUUID(r.b, off)
		return r.to.AppendUUID(dst, v), off, err
	}
	if depth <= 0 {
		return dst, off, errRecodeDepth
	}
	switch t {
	case wire.Struct:
		return r.structValue(dst, off, dt, depth-1)
	case wire.List, wire.Set:
		return r.list(dst, off, t, elemOf(dt, nil), depth-1)
	case wire.Map:
		return r.mapValue(dst, off, dt, depth-1)
	}
	return dst, off, errors.New("unknown wire type " + t.String())
}

func (r *recoder) structValue(dst []byte, off int, dt *dynamic.Type, depth int) ([]byte, int, error) {
	last := int16(0)
	for {
		h, next, err := r.from.ConsumeFieldHeader(r.b, off, last)
		if err != nil {
			return dst, next, err
		}
		off = next
		switch h.Type {
		case wire.Stop:
			return r.to.AppendStop(dst), off, nil
		case wire.Bool:
			if r.from == wire.Binary {
				if _, off, err = r.from.ConsumeBool(r.b, off); err != nil {
					return dst, off, err
				}
			}
			dst = r.to.AppendBoolField(dst, h.ID, last, h.Bool)
		default:
			dst = r.to.AppendFieldHeader(dst, h.Type, h.ID, last)
			if dst, off, err = r.value(dst, off, h.Type, fieldType(dt, h), depth); err != nil {
				return dst, off, err
			}
		}
		last = h.ID
	}
}

func (r *recoder) list(dst []byte, off int, t wire.Type, et0 *dynamic.Type, depth int) ([]byte, int, error) {
	et, n, off, err := r.from.ConsumeListHeader(r.b, off)
	if err != nil {
		return dst, off, err
	}
	if t == wire.Set {
		dst = r.to.AppendSetHeader(dst, et, n)
	} else {
		dst = r.to.AppendListHeader(dst, et, n)
	}
	for range n {
		if dst, off, err = r.value(dst, off, et, ofWire(et0, et), depth); err != nil {
			return dst, off, err
		}
	}
	return dst, off, nil
}

func (r *recoder) mapValue(dst []byte, off int, dt *dynamic.Type, depth int) ([]byte, int, error) {
	kt, vt, n, off, err := r.from.ConsumeMapHeader(r.b, off)
	if err != nil {
		return dst, off, err
	}
	key, val := elemOf(dt, func(t *dynamic.Type) *dynamic.Type { return t.Key }), elemOf(dt, nil)
	if n == 0 && kt == wire.Stop && key != nil && val != nil {
		kt, vt = key.Wire, val.Wire
	}
	dst = r.to.AppendMapHeader(dst, kt, vt, n)
	for range n {
		if dst, off, err = r.value(dst, off, kt, ofWire(key, kt), depth); err != nil {
			return dst, off, err
		}
		if dst, off, err = r.value(dst, off, vt, ofWire(val, vt), depth); err != nil {
			return dst, off, err
		}
	}
	return dst, off, nil
}

// fieldType is the Type of the field h of the struct Type dt, when dt
// declares it with h's wire type, or nil.
func fieldType(dt *dynamic.Type, h wire.FieldHeader) *dynamic.Type {
	if dt == nil || !dt.IsStruct() {
		return nil
	}
	if f := dt.FieldByID(h.ID); f != nil {
		return ofWire(f.Type, h.Type)
	}
	return nil
}

// elemOf is dt's element Type (a map's value Type), or with pick another
// part of it; nil when dt is nil.
func elemOf(dt *dynamic.Type, pick func(*dynamic.Type) *dynamic.Type) *dynamic.Type {
	switch {
	case dt == nil:
		return nil
	case pick != nil:
		return pick(dt)
	}
	return dt.Elem
}

// ofWire is dt when its values have wire type wt, else nil.
func ofWire(dt *dynamic.Type, wt wire.Type) *dynamic.Type {
	if dt != nil && dt.Wire == wt {
		return dt
	}
	return nil
}
