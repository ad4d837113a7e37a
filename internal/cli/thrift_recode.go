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
	switch t {
	case wire.Bool:
		return recodeScalar(r, dst, off, wire.Protocol.ConsumeBool, wire.Protocol.AppendBool)
	case wire.Byte:
		return recodeScalar(r, dst, off, wire.Protocol.ConsumeByte, wire.Protocol.AppendByte)
	case wire.I16:
		return recodeScalar(r, dst, off, wire.Protocol.ConsumeI16, wire.Protocol.AppendI16)
	case wire.I32:
		return recodeScalar(r, dst, off, wire.Protocol.ConsumeI32, wire.Protocol.AppendI32)
	case wire.I64:
		return recodeScalar(r, dst, off, wire.Protocol.ConsumeI64, wire.Protocol.AppendI64)
	case wire.Double:
		return recodeScalar(r, dst, off, wire.Protocol.ConsumeDouble, wire.Protocol.AppendDouble)
	case wire.String:
		return recodeScalar(r, dst, off, wire.Protocol.ConsumeBinary, wire.Protocol.AppendBinary)
	case wire.UUID:
		return recodeScalar(r, dst, off, wire.Protocol.ConsumeUUID, wire.Protocol.AppendUUID)
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

// recodeScalar recodes the value at off of a type with no nested values: read
// in r.from, written in r.to.
func recodeScalar[T any](r *recoder, dst []byte, off int,
	consume func(wire.Protocol, []byte, int) (T, int, error), appendTo func(wire.Protocol, []byte, T) []byte) ([]byte, int, error) {
	v, off, err := consume(r.from, r.b, off)
	return appendTo(r.to, dst, v), off, err
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
