package transcode

import (
	"unicode/utf8"

	"github.com/rpckit/rpckit/internal/jsonx"
	"github.com/rpckit/rpckit/wire"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// message prints the message of p held in spans[lo:hi] (several spans when a
// sub-message arrived split: parsing their concatenation is merging them).
// A non-empty typeURL is printed first as "@type": the fields of an Any's
// message.
func (e *encoder) message(p *plan, lo, hi int, typeURL []byte) error {
	if e.depth == 0 {
		return e.depthErr(e.spanStart(lo, hi))
	}
	e.depth--
	e.need()
	rbase, obase := len(e.recs), len(e.ones)
	for range p.oneofs {
		push(&e.ones, -1)
	}
	err := e.scan(p, lo, hi, e.ones[obase:])
	if err == nil {
		recs, ones := e.recs[rbase:], e.ones[obase:]
		if p.wkt.special() && typeURL == nil {
			err = e.wellKnown(p, recs, ones)
		} else {
			err = e.object(p, recs, ones, typeURL)
		}
	}
	e.recs, e.ones = e.recs[:rbase], e.ones[:obase]
	e.depth++
	return err
}

// object prints a message's fields as a JSON object, in declaration order
// and then the extensions, as protojson orders them.
func (e *encoder) object(p *plan, recs []rec, ones []int32, typeURL []byte) error {
	if p.messageSet {
		return e.fieldErr(0, nil, "no support for proto1 MessageSets")
	}
	e.open('{')
	if typeURL != nil {
		e.rawKey(`,"@type":`)
		e.str(typeURL) // resolved, so UTF-8
	}
	next := 0 // the next field to print unpopulated
	for i := 0; i < len(recs); {
		idx := recs[i].idx
		if idx == extIdx {
			e.unpopulatedUpTo(p, &next, len(p.fields))
			if err := e.extensions(p, recs[i:]); err != nil {
				return err
			}
			break
		}
		j := i + 1
		for j < len(recs) && recs[j].idx == idx {
			j++
		}
		if e.unpop {
			e.unpopulatedUpTo(p, &next, int(idx))
			next = int(idx) + 1
		}
		f := &p.fields[idx]
		var err error
		if j == i+1 && f.oneof < 0 && f.op < opList {
			err = e.single(f, &recs[i])
		} else {
			err = e.field(f, idx, recs[i:j], ones)
		}
		if err != nil {
			return err
		}
		i = j
	}
	e.unpopulatedUpTo(p, &next, len(p.fields))
	e.close('}')
	if len(p.required) > 0 && e.partial == 0 {
		return e.checkRequired(p, recs, ones)
	}
	return nil
}

// single prints field f, not in a oneof, with one record r: the common
// case, with the common kinds handled here.
func (e *encoder) single(f *fieldPlan, r *rec) error {
	switch f.op {
	case opString:
		if r.end == r.start && !f.presence && !e.unpop {
			return nil
		}
		if e.indent == "" { // key and value on one copy of the output slice
			out, ok := jsonx.AppendString(e.appendKey(e.out, f), e.b[r.start:r.end])
			if !ok {
				return e.fieldErr(int(r.start), f, "invalid UTF-8")
			}
			e.set(out)
			return nil
		}
		e.key(f)
		if !e.str(e.b[r.start:r.end]) {
			return e.fieldErr(int(r.start), f, "invalid UTF-8")
		}
		return nil
	case opScalar:
		e.scalarField(f, e.bitsOf(r))
		return nil
	case opMessage:
		e.key(f)
		if err := e.messageAt(f.sub, r.start, r.end); err != nil {
			return e.within(err, f, -1)
		}
		return nil
	case opBytes:
		if r.end == r.start && !f.presence && !e.unpop {
			return nil
		}
		if e.indent == "" {
			e.set(jsonx.AppendBase64(e.appendKey(e.out, f), e.b[r.start:r.end]))
			return nil
		}
		e.key(f)
		e.bytes(e.b[r.start:r.end])
		return nil
	}
	panic("transcode: single on a repeated field") // callers check f.op
}

// scalarField prints field f, a singular number, bool or enum, with the
// value of the bits v, unless it has no presence and v is zero.
func (e *encoder) scalarField(f *fieldPlan, v uint64) {
	if !f.presence && !e.unpop && (v == 0 || f.is32 && uint32(v) == 0) {
		return
	}
	if e.indent == "" { // key and value on one copy of the output slice
		e.set(e.appendBits(e.appendKey(e.out, f), f, v))
		return
	}
	e.key(f)
	e.bits(f, v)
}

// field prints the records recs of field f (index idx).
func (e *encoder) field(f *fieldPlan, idx int32, recs []rec, ones []int32) error {
	if f.oneof >= 0 && ones[f.oneof] != idx {
		return e.validate(f, recs)
	}
	return e.fieldValue(f, recs)
}

// fieldValue prints the records of a field that is set.
func (e *encoder) fieldValue(f *fieldPlan, recs []rec) error {
	switch {
	case f.isMap:
		return e.mapField(f, recs)
	case f.list:
		return e.list(f, recs)
	case f.sub != nil:
		return e.singularMessage(f, recs)
	}
	return e.singular(f, recs)
}

// singular prints the last value of a scalar field, unless the field has
// no presence and the value is its zero value.
func (e *encoder) singular(f *fieldPlan, recs []rec) error {
	r, err := e.lastOf(f, recs)
	if err != nil {
		return err
	}
	if !f.presence && !e.unpop && e.isZero(f, r) {
		return nil
	}
	e.key(f)
	return e.scalar(f, r)
}

// lastOf returns the last of recs, the value of a singular field, after
// checking the strings of the others as proto.Unmarshal would have.
func (e *encoder) lastOf(f *fieldPlan, recs []rec) (*rec, error) {
	n := len(recs) - 1
	if n > 0 && f.utf8 {
		if err := e.checkUTF8(f, recs[:n]); err != nil {
			return nil, err
		}
	}
	return &recs[n], nil
}

// checkUTF8 checks strings that are parsed but not printed.
func (e *encoder) checkUTF8(f *fieldPlan, recs []rec) error {
	for i := range recs {
		if r := &recs[i]; !utf8.Valid(e.b[r.start:r.end]) {
			return e.fieldErr(int(r.start), f, "invalid UTF-8")
		}
	}
	return nil
}

// isZero reports whether r holds the zero value of f's kind, which a field
// without presence does not print: proto3 keeps -0.0 (its bits are not zero).
func (e *encoder) isZero(f *fieldPlan, r *rec) bool {
	if protowire.Type(r.wt()) == protowire.BytesType {
		return r.start == r.end
	}
	v := e.bitsOf(r)
	if f.is32 {
		return uint32(v) == 0
	}
	return v == 0
}

// singularMessage prints a message field, merging its records from the last
// one that a oneof reset on.
func (e *encoder) singularMessage(f *fieldPlan, recs []rec) error {
	e.key(f)
	return e.messageValue(f, recs)
}

// messageValue prints the merged records of a message field.
func (e *encoder) messageValue(f *fieldPlan, recs []rec) error {
	k := lastReset(recs)
	if err := e.validate(f, recs[:k]); err != nil {
		return err
	}
	e.need()
	sbase := len(e.spans)
	for i := k; i < len(recs); i++ {
		push(&e.spans, span{recs[i].start, recs[i].end})
	}
	err := e.message(f.sub, sbase, len(e.spans), nil)
	e.spans = e.spans[:sbase]
	if err != nil {
		return e.within(err, f, -1)
	}
	return nil
}

// spanStart returns where the message in spans[lo:hi] starts, for errors.
func (e *encoder) spanStart(lo, hi int) int32 {
	if lo < hi {
		return e.spans[lo].start
	}
	return 0
}

// lastReset returns the index of the last record that starts the field
// afresh, or 0.
func lastReset(recs []rec) int {
	for i := len(recs) - 1; i > 0; i-- {
		if recs[i].aux&recReset != 0 {
			return i
		}
	}
	return 0
}

// list prints a repeated field: each record is an element, or for scalars
// possibly a packed run of them. An empty list is not printed unless
// unpopulated fields are.
func (e *encoder) list(f *fieldPlan, recs []rec) error {
	mark, level := len(e.out), e.level
	e.key(f)
	e.open('[')
	n, err := e.elements(f, recs, 0)
	if err != nil {
		return err
	}
	if n == 0 && !e.unpop {
		e.out, e.level = e.out[:mark], level
		return nil
	}
	e.close(']')
	return nil
}

// elements prints the elements of a repeated field and counts them.
func (e *encoder) elements(f *fieldPlan, recs []rec, n int) (int, error) {
	for i := range recs {
		var err error
		if n, err = e.element(f, &recs[i], n); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// element prints the element of record r, the n-th of its list (or for a
// packed run its elements), and returns the new count.
func (e *encoder) element(f *fieldPlan, r *rec, n int) (int, error) {
	switch {
	case f.packable && protowire.Type(r.wt()) == protowire.BytesType:
		m, err := e.packed(f, r, n)
		return n + m, err
	case f.sub != nil:
		e.elem(n == 0)
		if err := e.messageAt(f.sub, r.start, r.end); err != nil {
			return n, e.within(err, f, n)
		}
	default:
		out, err := e.appendScalar(e.appendElem(e.out, n == 0), f, r)
		if err != nil {
			return n, err
		}
		e.set(out)
	}
	return n + 1, nil
}

// packed prints the elements of a packed run, after the before printed
// already, and returns how many it printed.
func (e *encoder) packed(f *fieldPlan, r *rec, before int) (int, error) {
	b := e.b[:r.end]
	n := 0
	switch f.wt {
	case protowire.Fixed32Type, protowire.Fixed64Type:
		size := int32(4)
		if f.wt == protowire.Fixed64Type {
			size = 8
		}
		if (r.end-r.start)%size != 0 {
			return 0, e.fieldErr(int(r.end-(r.end-r.start)%size), f, "packed run length is not a multiple of the element size")
		}
		out := e.out
		for p := r.start; p < r.end; p += size {
			v := fixed32At(b, p)
			if size == 8 {
				v = fixed64At(b, p)
			}
			out = e.appendBits(e.appendElem(out, before+n == 0), f, v)
			n++
		}
		e.set(out)
		return n, nil
	}
	out := e.out        // the elements on one copy of the output slice
	op := scalarFast(f) // compact integers and enums print here, not through appendBits
	if op == fastBool || op == fastDouble || e.indent != "" {
		op = fastOther
	}
	for p := int(r.start); p < len(b); n++ {
		v, next := uint64(b[p]), p+1
		if v >= 0x80 {
			var c wire.Code
			if v, next, c = wire.Varint(b, p); next < 0 {
				e.set(out)
				return 0, e.codeErr(p, c, f)
			}
		}
		p = next
		if before+n > 0 && op != fastOther {
			out = append(out, ',')
		}
		switch op {
		case fastInt64:
			out = append(jsonx.AppendInt(append(out, '"'), int64(v)), '"')
		case fastUint64:
			out = append(jsonx.AppendUint(append(out, '"'), v), '"')
		case fastInt32:
			out = jsonx.AppendInt(out, int64(int32(v)))
		case fastUint32:
			out = jsonx.AppendUint(out, uint64(uint32(v)))
		case fastEnum:
			out = e.appendEnum(out, f, protoreflect.EnumNumber(int32(v)))
		default:
			out = e.appendBits(e.appendElem(out, before+n == 0), f, v)
		}
	}
	e.set(out)
	return n, nil
}

// unpopulatedUpTo prints the fields next..end-1 as unpopulated when the
// options ask for it, and moves next to end.
func (e *encoder) unpopulatedUpTo(p *plan, next *int, end int) {
	if !e.unpop {
		return
	}
	for ; *next < end; *next++ {
		e.unpopulated(&p.fields[*next])
	}
}

// unpopulated prints an absent field as protojson's EmitUnpopulated does:
// null with presence, else its zero value; oneof members are left out.
func (e *encoder) unpopulated(f *fieldPlan) {
	if f.inOneof {
		return
	}
	e.key(f)
	switch {
	case f.isMap:
		e.set(append(e.out, "{}"...))
	case f.list:
		e.set(append(e.out, "[]"...))
	case f.presence:
		e.set(append(e.out, "null"...))
	default:
		e.zero(f)
	}
}

// checkRequired reports a proto2 required field that is absent, as
// protojson's proto.CheckInitialized does.
func (e *encoder) checkRequired(p *plan, recs []rec, ones []int32) error {
	for _, idx := range p.required {
		found := false
		for i := range recs {
			if recs[i].idx == idx {
				found = true
				break
			}
		}
		if f := &p.fields[idx]; !found || (f.oneof >= 0 && ones[f.oneof] != idx) {
			return e.fieldErr(0, f, "required field "+string(f.desc.FullName())+" not set")
		}
	}
	return nil
}
