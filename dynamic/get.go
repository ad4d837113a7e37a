package dynamic

import (
	"github.com/rpckit/rpckit/wire"
	"google.golang.org/protobuf/encoding/protowire"
)

// Get returns the element at path p. Absent fields, list elements past the
// end and missing map keys yield an Elem that does not exist and reads as
// the default. Get allocates only to merge a sub-message that arrives split
// across several records.
func (v Value) Get(p Path) (Elem, error) {
	cur := v
	for i := 0; i < len(p); i++ {
		f, err := cur.t.resolve(p, i)
		if err != nil {
			return Elem{}, err
		}
		last := i == len(p)-1
		if (f.List || f.Map) && !last && p[i+1].Kind != StepField {
			e, err := cur.element(f, p, i+1)
			if i++; err != nil || i == len(p)-1 {
				return e, err
			}
			if e.kind != elemMessage {
				return Elem{}, pathError(p, i+2, "not a message")
			}
			cur = e.msg
			continue
		}
		switch {
		case f.List || f.Map:
			if !last {
				return Elem{}, pathError(p, i+2, "a list or map takes an index or key here")
			}
			return cur.container(f), nil
		case f.isMessage():
			sub, found, err := cur.message(f, p, i+1)
			if err != nil || last {
				return Elem{f: f, kind: elemMessage, exists: found, msg: sub}, err
			}
			cur = sub
		default:
			if !last {
				return Elem{}, pathError(p, i+2, "not a message")
			}
			return cur.scalar(f, p, i+1)
		}
	}
	return Elem{kind: elemMessage, exists: true, msg: v}, nil
}

// resolve returns the field that step i of p names in t.
func (t *Type) resolve(p Path, i int) (*Field, error) {
	s := p[i]
	var f *Field
	switch {
	case s.Kind != StepField:
		return nil, pathError(p, i+1, "index or key of a non-repeated field")
	case s.Num != 0:
		f = t.FieldByNumber(s.Num)
	default:
		f = t.lookup(s.Name)
	}
	if f == nil && s.Num != 0 {
		return nil, &PathError{Path: pathPrefix(p, i+1), Msg: "no field numbered " + itoa(int(s.Num)) + " in " + string(t.FullName())}
	}
	if f == nil {
		return nil, &PathError{Path: pathPrefix(p, i+1), Msg: noField(t, s.Name)}
	}
	return f, nil
}

func (v Value) container(f *Field) Elem {
	kind := elemList
	if f.Map {
		kind = elemMap
	}
	return Elem{f: f, kind: kind, exists: true, msg: v}
}

// scalar returns the last value of singular scalar f, unless a later member
// of its oneof cleared it.
func (v Value) scalar(f *Field, p Path, n int) (Elem, error) {
	_, last, count, err := v.liveSpans(f)
	if err != nil {
		return Elem{}, wrapWire(err, v.base, p, n)
	}
	if count == 0 {
		return Elem{f: f, kind: elemScalar}, nil
	}
	return v.decodeScalar(f, wire.Field{Type: f.WireType, Value: last.value, ValueEnd: last.end}, p, n)
}

// span is the payload of a record.
type span struct{ value, end int }

// liveSpans scans v for the records of f that are live at the end, those
// after the last record of another member of f's oneof. It returns the
// payloads of the first and the last of them and how many there are.
// Records of other fields are skipped by tag and length alone.
func (v Value) liveSpans(f *Field) (first, last span, count int, err error) {
	b := v.b
	for p := 0; p < len(b); {
		p = v.t.skipOthers(b, p, f)
		if p >= len(b) {
			break
		}
		r, err := wire.ParseField(b, p)
		if err != nil {
			return span{}, span{}, 0, err
		}
		p = r.End
		switch {
		case r.Num == f.Num && r.Type == f.WireType:
			if count == 0 {
				first = span{r.Value, r.ValueEnd}
			}
			last = span{r.Value, r.ValueEnd}
			count++
		case count > 0 && v.sibling(f, r.Num, r.Type):
			count = 0
		}
	}
	return first, last, count, nil
}

// decodeScalar decodes the value of record r of scalar field f.
func (v Value) decodeScalar(f *Field, r wire.Field, p Path, n int) (Elem, error) {
	e := Elem{f: f, kind: elemScalar, exists: true}
	var c wire.Code
	switch r.Type {
	case protowire.VarintType:
		e.bits, _, c = wire.Varint(v.b, r.Value)
	case protowire.Fixed32Type:
		var u uint32
		u, _, c = wire.Fixed32(v.b, r.Value)
		e.bits = uint64(u)
	case protowire.Fixed64Type:
		e.bits, _, c = wire.Fixed64(v.b, r.Value)
	default:
		e.raw = r.Payload(v.b)
	}
	if c != 0 {
		return Elem{}, &Error{Offset: v.base + r.Value, Path: pathPrefix(p, n), Code: c}
	}
	return e, nil
}

// message returns the merge of every live record of message field f: the
// record itself when there is one, their concatenation when it is split.
func (v Value) message(f *Field, p Path, n int) (Value, bool, error) {
	first, _, count, err := v.liveSpans(f)
	if err != nil {
		return Value{}, false, wrapWire(err, v.base, p, n)
	}
	switch count {
	case 0:
		return Value{t: f.Message}, false, nil
	case 1:
		return v.sub(f.Message, first.value, first.end), true, nil
	}
	buf := v.appendLive(f, make([]byte, 0, len(v.b)))
	return Value{t: f.Message, b: buf, base: v.base + first.value}, true, nil
}

// appendLive appends to buf the payloads of the live records of message
// field f, which liveSpans has scanned without error.
func (v Value) appendLive(f *Field, buf []byte) []byte {
	b := v.b
	for p := 0; p < len(b); {
		p = v.t.skipOthers(b, p, f)
		if p >= len(b) {
			break
		}
		r, _ := wire.ParseField(b, p)
		p = r.End
		switch {
		case r.Num == f.Num && r.Type == f.WireType:
			buf = append(buf, r.Payload(b)...)
		case v.sibling(f, r.Num, r.Type):
			buf = buf[:0]
		}
	}
	return buf
}
