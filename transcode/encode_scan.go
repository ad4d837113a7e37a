package transcode

import (
	"slices"

	"github.com/rpckit/rpckit/wire"
	"google.golang.org/protobuf/encoding/protowire"
)

// scan appends to e.recs a rec for every record of a known field (or of a
// possible extension) of the message held in spans[lo:hi], records the
// oneof winners in ones, and leaves the recs in declaration order (stable:
// records of one field keep their wire order). Unknown fields are checked
// for well-formedness and dropped, as protojson drops them.
func (e *encoder) scan(p *plan, lo, hi int, ones []int32) error {
	sorted := true
	last := int32(-1)
	base := len(e.recs)
	for s := lo; s < hi; s++ {
		sp := e.spans[s]
		b := e.b[:sp.end]
		for pos := int(sp.start); pos < len(b); {
			num, wt, vs, ve, next, err := e.record(b, pos)
			if err != nil {
				return err
			}
			pos = next
			idx := p.lookup(num)
			if idx < 0 {
				if p.extRanges.Has(num) {
					e.recs = append(e.recs, rec{idx: extIdx, aux: uint32(wt) | uint32(num)<<3, start: int32(vs), end: int32(ve)})
					last = extIdx
				}
				continue
			}
			f := &p.fields[idx]
			if !f.accepts(wt) {
				continue
			}
			r := rec{idx: idx, aux: uint32(wt), start: int32(vs), end: int32(ve)}
			if f.oneof >= 0 {
				if w := ones[f.oneof]; w >= 0 && w != idx {
					r.aux |= recReset
				}
				ones[f.oneof] = idx
			}
			e.recs = append(e.recs, r)
			if idx < last {
				sorted = false
			}
			last = idx
		}
	}
	if !sorted {
		slices.SortStableFunc(e.recs[base:], func(a, b rec) int { return int(a.idx) - int(b.idx) })
	}
	return nil
}

// record parses the record at b[pos:]: its number and wire type, the span
// of its value and where the next record starts.
func (e *encoder) record(b []byte, pos int) (num protowire.Number, wt protowire.Type, vs, ve, next int, err error) {
	q := pos + 1
	if c := b[pos]; c >= 8 && c < 0x80 {
		num, wt = protowire.Number(c>>3), protowire.Type(c&7)
	} else {
		num, wt, q, err = wire.ParseTag(b, pos)
		if err != nil {
			return 0, 0, 0, 0, 0, e.wireErr(err, nil)
		}
	}
	switch wt {
	case protowire.VarintType:
		if ve = wire.VarintEnd(b, q); ve < 0 {
			var c wire.Code
			if _, ve, c = wire.Varint(b, q); c != 0 {
				return 0, 0, 0, 0, 0, e.codeErr(q, c, nil)
			}
		}
		return num, wt, q, ve, ve, nil
	case protowire.Fixed32Type:
		if len(b)-q < 4 {
			return 0, 0, 0, 0, 0, e.codeErr(q, wire.CodeTruncated, nil)
		}
		return num, wt, q, q + 4, q + 4, nil
	case protowire.Fixed64Type:
		if len(b)-q < 8 {
			return 0, 0, 0, 0, 0, e.codeErr(q, wire.CodeTruncated, nil)
		}
		return num, wt, q, q + 8, q + 8, nil
	case protowire.BytesType:
		if vs, ve = wire.LenSpan(b, q); ve >= 0 {
			return num, wt, vs, ve, ve, nil
		}
		return e.longBytes(b, q, num)
	case protowire.EndGroupType:
		return 0, 0, 0, 0, 0, e.codeErr(pos, wire.CodeEndGroup, nil)
	case 6, 7:
		return 0, 0, 0, 0, 0, e.codeErr(pos, wire.CodeWireType, nil)
	}
	f, err := wire.ParseFieldDepth(b, pos, wire.DefaultMaxDepth)
	if err != nil {
		return 0, 0, 0, 0, 0, e.wireErr(err, nil)
	}
	return num, wt, f.Value, f.ValueEnd, f.End, nil
}

// longBytes parses a length-delimited value whose length prefix takes more
// than two bytes, or that runs past the end.
func (e *encoder) longBytes(b []byte, q int, num protowire.Number) (protowire.Number, protowire.Type, int, int, int, error) {
	n, vs, c := wire.Varint(b, q)
	if c != 0 {
		return 0, 0, 0, 0, 0, e.codeErr(q, c, nil)
	}
	if n > uint64(len(b)-vs) {
		return 0, 0, 0, 0, 0, e.codeErr(q, wire.CodeTruncated, nil)
	}
	ve := vs + int(n)
	return num, protowire.BytesType, vs, ve, ve, nil
}

// varintAt decodes the varint at b[p:], which scan has checked.
func varintAt(b []byte, p int32) uint64 {
	if c := b[p]; c < 0x80 {
		return uint64(c)
	}
	v, _, _ := wire.Varint(b, int(p))
	return v
}

func fixed32At(b []byte, p int32) uint64 {
	q := b[p : p+4]
	return uint64(uint32(q[0]) | uint32(q[1])<<8 | uint32(q[2])<<16 | uint32(q[3])<<24)
}

func fixed64At(b []byte, p int32) uint64 {
	q := b[p : p+8]
	return uint64(q[0]) | uint64(q[1])<<8 | uint64(q[2])<<16 | uint64(q[3])<<24 |
		uint64(q[4])<<32 | uint64(q[5])<<40 | uint64(q[6])<<48 | uint64(q[7])<<56
}

// bitsOf decodes the scalar value of r.
func (e *encoder) bitsOf(r *rec) uint64 {
	switch protowire.Type(r.wt()) {
	case protowire.Fixed32Type:
		return fixed32At(e.b, r.start)
	case protowire.Fixed64Type:
		return fixed64At(e.b, r.start)
	}
	return varintAt(e.b, r.start)
}
