package transcode

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/rpckit/rpckit/internal/jsonx"
	"github.com/rpckit/rpckit/wire"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// The compact loop is the direct path for compact output without
// unpopulated fields (the default options, with JSON or proto names, enum
// names or numbers). It keeps the output in a local slice and does each
// record's work in one switch on the field's fast op, which names the kind
// and shape together; the fields it has no op for go through the direct
// path's shared code. It gives up where the general path is needed (see
// encode_direct.go).

// What the compact loop does with a field (fieldPlan.fast).
const (
	fastOther       uint8 = iota // through the shared code
	fastInt64                    // int64, sfixed64: a quoted decimal
	fastUint64                   // uint64, fixed64: a quoted decimal
	fastInt32                    // int32, sfixed32
	fastUint32                   // uint32, fixed32
	fastBool                     //
	fastDouble                   //
	fastEnum                     // an enum other than NullValue
	fastString                   //
	fastMessage                  // a singular message (not a group)
	fastListString               // repeated string
	fastListMessage              // repeated message (not a group)
	fastMap                      //
)

// fastOf returns the fast op of f: fastOther for the kinds and shapes
// without one, and for fields whose names do not fit a key word.
func fastOf(f *fieldPlan) uint8 {
	if len(f.keys[jsonNames]) > keyWord || len(f.keys[protoNames]) > keyWord {
		return fastOther
	}
	switch f.op {
	case opScalar:
		return scalarFast(f)
	case opString:
		return fastString
	case opMessage:
		if f.kind == protoreflect.MessageKind {
			return fastMessage
		}
	case opList:
		switch f.kind {
		case protoreflect.StringKind:
			return fastListString
		case protoreflect.MessageKind:
			return fastListMessage
		}
	case opMap:
		return fastMap
	}
	return fastOther
}

// scalarFast returns the fast op of one value of f, a number, bool or
// enum, or fastOther.
func scalarFast(f *fieldPlan) uint8 {
	switch f.kind {
	case protoreflect.Int64Kind, protoreflect.Sfixed64Kind:
		return fastInt64
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return fastUint64
	case protoreflect.Int32Kind, protoreflect.Sfixed32Kind:
		return fastInt32
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return fastUint32
	case protoreflect.BoolKind:
		return fastBool
	case protoreflect.DoubleKind:
		return fastDouble
	case protoreflect.EnumKind:
		if !f.isNull {
			return fastEnum
		}
	}
	return fastOther
}

// shortVarint reads a varint of one or two bytes at b[p:], the common
// ones, or returns next -1 for any other.
func shortVarint(b []byte, p int) (v uint64, next int) {
	if p < len(b) && b[p] < 0x80 {
		return uint64(b[p]), p + 1
	}
	if p+1 < len(b) && b[p+1] < 0x80 {
		return uint64(b[p]&0x7f) | uint64(b[p+1])<<7, p + 2
	}
	return 0, -1
}

// compactFields prints the message of p in b[start:end] as its records
// come, and reports whether it did (see direct). It is the one fast path
// beside the general one (scan, then print) and earns its place: a
// conversion with it is 1.6x as fast on the Small fixture and 1.4x on
// Medium (the two paths paired, 200 rounds, median of 3 runs). It is one
// long loop on purpose, the state machine of a message's records with
// each record's work inline: split into a record reader and a function per
// kind of record, Marshal lost about a tenth (Medium 12.2x protojson down
// to 10.8x, against a target of 11x).
func (e *encoder) compactFields(p *plan, start, end int32, checked bool) (bool, error) {
	b := e.b[:end]
	out := append(e.out, '{')
	// The field of the last record, and for lists of strings and messages
	// their elements so far; runs of the shared code (the other lists and
	// maps) have their state in rn.
	cur, cf, n := int32(-1), (*fieldPlan)(nil), 0
	var rn run
	var oneofs uint64
	for pos := int(start); pos < len(b); {
		var (
			wt     protowire.Type
			vs, ve int
			idx    int32
			v      uint64 // the value of a varint or fixed record
		)
		ve = -1
		if c := b[pos]; c < 0x80 && c >= 8 {
			wt, vs = protowire.Type(c&7), pos+1
			switch wt {
			case protowire.VarintType:
				if v, ve = shortVarint(b, vs); ve < 0 {
					v, ve, _ = wire.Varint(b, vs)
				}
			case protowire.BytesType:
				if vs < len(b) && b[vs] < 0x80 && int(b[vs]) < len(b)-vs {
					vs, ve = vs+1, vs+1+int(b[vs])
				}
			case protowire.Fixed64Type:
				if len(b)-vs >= 8 {
					v, ve = binary.LittleEndian.Uint64(b[vs:]), vs+8
				}
			case protowire.Fixed32Type:
				if len(b)-vs >= 4 {
					v, ve = uint64(binary.LittleEndian.Uint32(b[vs:])), vs+4
				}
			}
			idx = p.tags[c]
		}
		if ve < 0 {
			num, w, s, t, next, err := e.record(b, pos)
			if err != nil {
				e.set(out)
				return false, err
			}
			wt, vs, ve, pos = w, s, t, next
			idx = p.tagIndex(num, wt)
			if wt != protowire.BytesType && wt != protowire.StartGroupType {
				r := rec{aux: uint32(wt), start: int32(vs)}
				v = e.bitsOf(&r)
			}
		} else {
			pos = ve
		}
		switch {
		case idx == tagSkip:
			continue
		case idx < 0 || idx < cur:
			e.set(out)
			return false, nil
		}
		f := &p.fields[idx]
		if idx == cur { // a further element of a list, or a map entry
			switch f.fast {
			case fastListString:
				res, ok := jsonx.AppendString(append(out, ','), b[vs:ve])
				if !ok {
					e.set(out)
					return false, final(checked, e.fieldErr(vs, f, "invalid UTF-8"))
				}
				out = res
				n++
				continue
			case fastListMessage:
				var err error
				if out, err = e.compactMessage(out, f, vs, ve, n); err != nil {
					return false, final(checked, err)
				}
				n++
				continue
			case fastMap:
				if !e.shortEntry(f, vs, ve) {
					if err := e.recEntry(f, idx, wt, vs, ve); err != nil {
						e.set(out)
						return false, final(checked, err)
					}
				}
				continue
			}
			e.set(out)
			if f.op < opList {
				return false, nil // a field seen again: the general path merges
			}
			r := rec{idx: idx, aux: uint32(wt), start: int32(vs), end: int32(ve)}
			if err := e.extendRun(&rn, &r); err != nil {
				return false, final(checked, err)
			}
			out = e.out
			continue
		}
		if cf != nil && cf.op >= opList {
			var err error
			if out, err = e.endCompactRun(out, cf, &rn); err != nil {
				return false, final(checked, err)
			}
		}
		if f.oneof >= 0 {
			if oneofs&(1<<f.oneof) != 0 {
				e.set(out)
				return false, nil
			}
			oneofs |= 1 << f.oneof
		}
		cur, cf = idx, f
		if cap(out)-len(out) < keyWord { // room for a key word
			out = slices.Grow(out, keyWord)
		}
		switch f.fast {
		case fastInt64:
			if v != 0 || f.presence {
				out = append(jsonx.AppendInt(append(putKey(out, f, e.names), '"'), int64(v)), '"')
			}
		case fastUint64:
			if v != 0 || f.presence {
				out = append(jsonx.AppendUint(append(putKey(out, f, e.names), '"'), v), '"')
			}
		case fastInt32:
			if uint32(v) != 0 || f.presence {
				out = jsonx.AppendInt(putKey(out, f, e.names), int64(int32(v)))
			}
		case fastUint32:
			if uint32(v) != 0 || f.presence {
				out = jsonx.AppendUint(putKey(out, f, e.names), uint64(uint32(v)))
			}
		case fastBool:
			if v != 0 {
				out = append(putKey(out, f, e.names), "true"...)
			} else if f.presence {
				out = append(putKey(out, f, e.names), "false"...)
			}
		case fastDouble:
			if v != 0 || f.presence {
				out = jsonx.AppendFloat(putKey(out, f, e.names), math.Float64frombits(v), 64)
			}
		case fastEnum:
			if uint32(v) != 0 || f.presence {
				n := protoreflect.EnumNumber(int32(v))
				if q := f.enum.quoted(n); q != nil && !e.enumNums {
					out = append(putKey(out, f, e.names), q...)
				} else {
					out = jsonx.AppendInt(putKey(out, f, e.names), int64(n))
				}
			}
		case fastString:
			if ve > vs || f.presence {
				res, ok := jsonx.AppendString(putKey(out, f, e.names), b[vs:ve])
				if !ok {
					e.set(out)
					return false, final(checked, e.fieldErr(vs, f, "invalid UTF-8"))
				}
				out = res
			}
		case fastMessage, fastListMessage:
			k := -1 // a singular message; 0 the first element of a list
			if f.fast == fastListMessage {
				k, n = 0, 1
			}
			var err error
			if out, err = e.compactMessage(out, f, vs, ve, k); err != nil {
				return false, final(checked, err)
			}
		case fastListString:
			res, ok := jsonx.AppendString(append(putKey(out, f, e.names), '['), b[vs:ve])
			if !ok {
				e.set(out)
				return false, final(checked, e.fieldErr(vs, f, "invalid UTF-8"))
			}
			out = res
			n = 1
		case fastMap:
			e.need()
			rn = run{f: f, idx: idx, ebase: len(e.ents)}
			if !e.shortEntry(f, vs, ve) {
				if err := e.recEntry(f, idx, wt, vs, ve); err != nil {
					e.set(out)
					return false, final(checked, err)
				}
			}
		default:
			e.set(out)
			r := rec{idx: idx, aux: uint32(wt), start: int32(vs), end: int32(ve)}
			var err error
			switch {
			case f.op == opScalar:
				e.scalarField(f, v)
			case f.op < opList:
				err = e.single(f, &r)
			default:
				rn = run{f: f, idx: idx}
				err = e.startRun(&rn, &r)
			}
			if err != nil {
				return false, final(checked, err)
			}
			out = e.out
		}
	}
	if cf != nil && cf.op >= opList {
		var err error
		if out, err = e.endCompactRun(out, cf, &rn); err != nil {
			return false, final(checked, err)
		}
	}
	e.set(append(out, '}'))
	return true, nil
}

// endCompactRun ends the list or map of field f, after out: the compact
// loop's own lists, or the run rn of the shared code.
func (e *encoder) endCompactRun(out []byte, f *fieldPlan, rn *run) ([]byte, error) {
	switch f.fast {
	case fastMap:
		if cap(out)-len(out) < keyWord {
			out = slices.Grow(out, keyWord)
		}
		out, err := e.appendEntries(putKey(out, f, e.names), f, e.ents[rn.ebase:])
		e.ents = e.ents[:rn.ebase]
		return out, err
	case fastListString, fastListMessage: // never empty
		return append(out, ']'), nil
	}
	e.set(out)
	if err := e.endRun(rn); err != nil {
		return nil, err
	}
	return e.out, nil
}

// keyWord is the size of the padded key words of fieldPlan.keys16.
const keyWord = 16

// The keys a conversion prints (encoder.names), indices of fieldPlan.keys.
const (
	jsonNames  = 0
	protoNames = 1
)

// putKey appends the key of f, for the compact loop: keys[names], which
// fits in its word; out has room for the word.
func putKey(out []byte, f *fieldPlan, names int) []byte {
	l, k := len(out), &f.keys16[names&1]
	if out[l-1] == '{' {
		l--
		*(*[keyWord]byte)(out[l : l+keyWord]) = *k
		out[l] = '{'
	} else {
		*(*[keyWord]byte)(out[l : l+keyWord]) = *k
	}
	return out[:l+len(f.keys[names&1])]
}

// compactMessage prints the message of field f at b[vs:ve] after out: a
// singular field's value when k < 0, else the element k of a list, the
// first opening it. out has room for a key word.
func (e *encoder) compactMessage(out []byte, f *fieldPlan, vs, ve, k int) ([]byte, error) {
	switch {
	case k < 0:
		out = putKey(out, f, e.names)
	case k == 0:
		out = append(putKey(out, f, e.names), '[')
	default:
		out = append(out, ',')
	}
	e.set(out)
	if err := e.messageAt(f.sub, int32(vs), int32(ve)); err != nil {
		return nil, e.within(err, f, k)
	}
	return e.out, nil
}

// recEntry collects the map entry of the record of field f (index idx)
// at b[vs:ve], of wire type wt, on the stack of entries, through the
// general entry reader: the compact loop's entries that shortEntry does not
// read, which is tried first.
func (e *encoder) recEntry(f *fieldPlan, idx int32, wt protowire.Type, vs, ve int) error {
	r := rec{idx: idx, aux: uint32(wt), start: int32(vs), end: int32(ve)}
	return e.pushEntry(f, &r)
}

// shortEntry reads the map entry of field f at b[vs:ve] onto the stack of
// entries if it is a key record and then a value record, each with a
// one-byte tag, and reports whether it was. It checks the two tag bytes
// against those a key and a value of f have, and finds the key and the
// value's span in place; a varint value is decoded where it is printed.
func (e *encoder) shortEntry(f *fieldPlan, vs, ve int) bool {
	kf, vf := f.key, f.val
	b := e.b[:ve]
	if vs >= ve || b[vs] != byte(1<<3|kf.wt) {
		return false
	}
	var key uint64
	ks, ke := vs+1, -1 // the key's span
	switch kf.wt {
	case protowire.BytesType:
		if ks, ke = wire.LenSpan(b, ks); ke >= 0 {
			key = keyPrefix(e.b, ks, ke)
		}
	case protowire.VarintType:
		v, next := shortVarint(b, ks)
		if next < 0 {
			v, next, _ = wire.Varint(b, ks)
		}
		key, ke = mapKeyBits(kf.kind, v), next
	}
	if ke < 0 || ke >= len(b) || b[ke] != byte(2<<3|vf.wt) {
		return false
	}
	p, end := ke+1, -1 // the value's span
	switch vf.wt {
	case protowire.BytesType:
		p, end = wire.LenSpan(b, p)
	case protowire.VarintType:
		if end = wire.VarintEnd(b, p); end < 0 {
			_, end, _ = wire.Varint(b, p) // ten bytes, or malformed
		}
	case protowire.Fixed64Type:
		end = p + 8
	case protowire.Fixed32Type:
		end = p + 4
	}
	if end != len(b) {
		return false
	}
	if vf.sub != nil { // the value's span on the stack of spans
		push(&e.spans, span{int32(p), int32(end)})
		p, end = len(e.spans)-1, len(e.spans)
	}
	push(&e.ents, entry{key: key, ks: int32(ks), ke: int32(ke), vs: int32(p), ve: int32(end), vwt: uint8(vf.wt), hasVal: true})
	return true
}
