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
// for well-formedness and dropped, as protojson drops them. Like the direct
// path's loop, it parses the common records inline.
func (e *encoder) scan(p *plan, lo, hi int, ones []int32) error {
	sorted := true
	last := int32(-1)
	base := len(e.recs)
	for s := lo; s < hi; s++ {
		sp := e.spans[s]
		b := e.b[:sp.end]
		for pos := int(sp.start); pos < len(b); {
			var (
				num    protowire.Number
				wt     protowire.Type
				vs, ve int
				idx    int32
			)
			ve = -1
			// One-byte tags of varint, fixed and short length-delimited
			// records are parsed here; the rest by record.
			if c := b[pos]; c < 0x80 && c >= 8 {
				num, wt, vs = protowire.Number(c>>3), protowire.Type(c&7), pos+1
				switch wt {
				case protowire.VarintType:
					for i := vs; i < len(b) && i < vs+10; i++ {
						if b[i] < 0x80 {
							ve = i + 1
							break
						}
					}
					if ve-vs == 10 && b[ve-1] > 1 {
						ve = -1 // overflow: record reports it
					}
				case protowire.BytesType:
					if vs < len(b) && b[vs] < 0x80 && int(b[vs]) < len(b)-vs {
						vs, ve = vs+1, vs+1+int(b[vs])
					}
				case protowire.Fixed64Type:
					if len(b)-vs >= 8 {
						ve = vs + 8
					}
				case protowire.Fixed32Type:
					if len(b)-vs >= 4 {
						ve = vs + 4
					}
				}
				idx = p.tags[c]
			}
			if ve < 0 {
				var err error
				if num, wt, vs, ve, pos, err = e.record(b, pos); err != nil {
					return err
				}
				idx = p.tagIndex(num, wt)
			} else {
				pos = ve
			}
			if idx < 0 {
				if idx == tagExtension {
					push(&e.recs, rec{idx: extIdx, aux: uint32(wt) | uint32(num)<<3, start: int32(vs), end: int32(ve)})
					last = extIdx
				}
				continue
			}
			f := &p.fields[idx]
			r := rec{idx: idx, aux: uint32(wt), start: int32(vs), end: int32(ve)}
			if f.oneof >= 0 {
				if w := ones[f.oneof]; w >= 0 && w != idx {
					r.aux |= recReset
				}
				ones[f.oneof] = idx
			}
			push(&e.recs, r)
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

// Tag table entries that are not field indices.
const (
	tagSkip      = -1 // unknown field, or a wire type the field does not take
	tagExtension = -2 // a number in an extension range
)

// tagIndex returns the index of the field a record of number num and wire
// type wt is a value of, or tagSkip or tagExtension.
func (p *plan) tagIndex(num protowire.Number, wt protowire.Type) int32 {
	idx := p.lookup(num)
	switch {
	case idx >= 0 && p.fields[idx].accepts(wt):
		return idx
	case idx < 0 && p.extRanges.Has(num):
		return tagExtension
	}
	return tagSkip
}

// next parses the record at b[pos:] as record does, with a fast path for
// the common records.
func (e *encoder) next(b []byte, pos int) (num protowire.Number, wt protowire.Type, vs, ve, next int, err error) {
	if c := b[pos]; c < 0x80 && c >= 8 {
		num, wt, vs = protowire.Number(c>>3), protowire.Type(c&7), pos+1
		switch wt {
		case protowire.BytesType:
			if vs < len(b) && b[vs] < 0x80 && int(b[vs]) < len(b)-vs {
				return num, wt, vs + 1, vs + 1 + int(b[vs]), vs + 1 + int(b[vs]), nil
			}
		case protowire.VarintType:
			if vs < len(b) && b[vs] < 0x80 {
				return num, wt, vs, vs + 1, vs + 1, nil
			}
		}
	}
	return e.record(b, pos)
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
