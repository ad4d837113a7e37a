package wire

// Field is one field of a struct: its header and where its parts lie in
// the scanned slice. Offsets are absolute.
//
//	Start           Value           End
//	| field header  | value ....... |
//
// A compact bool field has no value bytes (Value == End): its value is in
// the header, and in Bool.
type Field struct {
	FieldHeader
	Start int
	Value int
	End   int
}

// Payload returns the field's value bytes b[f.Value:f.End].
func (f Field) Payload(b []byte) []byte { return b[f.Value:f.End:f.End] }

// Raw returns the whole field b[f.Start:f.End].
func (f Field) Raw(b []byte) []byte { return b[f.Start:f.End:f.End] }

// Iter iterates over the fields of a struct up to its Stop, skipping each
// value. The zero Iter is empty.
//
//	it := wire.NewIter(wire.Compact, b, off)
//	for it.Next() {
//		f := it.Field()
//		...
//	}
//	if err := it.Err(); err != nil { ... }
//	end := it.Offset() // past the Stop
//
// A nested struct's fields are iterated by a new Iter at its Value.
type Iter struct {
	b     []byte
	off   int
	p     Protocol
	depth int
	live  bool // made by NewIter and not yet at the end
	f     Field
	err   error
}

// NewIter returns an iterator over the fields of the struct at b[off:],
// nesting up to [DefaultMaxDepth] deep (the struct itself one level).
func NewIter(p Protocol, b []byte, off int) Iter {
	return Iter{b: b, off: off, p: p, depth: DefaultMaxDepth - 1, live: true}
}

// SetMaxDepth sets the nesting limit, the struct itself counting one level.
func (it *Iter) SetMaxDepth(d int) { it.depth = d - 1 }

// Next advances to the next field and reports whether there is one. It
// returns false at the struct's Stop or on malformed data (see Err).
func (it *Iter) Next() bool {
	if !it.live {
		return false
	}
	if it.depth < 0 {
		return it.fail(errAt(it.off, CodeDepth))
	}
	h, v, err := it.p.ConsumeFieldHeader(it.b, it.off, it.f.ID)
	if err != nil {
		return it.fail(err)
	}
	if h.Type == Stop {
		it.live, it.off = false, v
		return false
	}
	end := v
	if !(it.p == Compact && h.Type == Bool) {
		if end, err = it.p.SkipDepth(it.b, v, h.Type, it.depth); err != nil {
			return it.fail(err)
		}
	}
	it.f = Field{FieldHeader: h, Start: it.off, Value: v, End: end}
	it.off = end
	return true
}

func (it *Iter) fail(err error) bool {
	it.err, it.live = err, false
	return false
}

// Field returns the current field.
func (it *Iter) Field() Field { return it.f }

// Offset returns the offset of the next field header, or past the Stop
// once Next has returned false without an error.
func (it *Iter) Offset() int { return it.off }

// Err returns the error that stopped the iteration, if any.
func (it *Iter) Err() error { return it.err }
