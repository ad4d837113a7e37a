package wire

import "google.golang.org/protobuf/encoding/protowire"

// DefaultMaxDepth is the group nesting limit of [ParseField] and [Iter],
// protobuf-go's default recursion limit.
const DefaultMaxDepth = 10000

// Field is one record of a message: its number, wire type and where its
// parts lie in the scanned slice. Offsets are absolute.
//
//	Start        TagEnd       Value           ValueEnd     End
//	| tag ...... | length ... | payload ..... | end-group  |
//
// For a length-delimited record TagEnd..Value is the length prefix and
// ValueEnd == End. For a group, Value..ValueEnd holds the group's fields and
// ValueEnd..End the end-group tag. For varint and fixed records
// TagEnd == Value and ValueEnd == End.
type Field struct {
	Num      protowire.Number
	Type     protowire.Type
	Start    int
	TagEnd   int
	Value    int
	ValueEnd int
	End      int
}

// Payload returns the record's value bytes b[f.Value:f.ValueEnd].
func (f Field) Payload(b []byte) []byte { return b[f.Value:f.ValueEnd:f.ValueEnd] }

// Raw returns the whole record b[f.Start:f.End].
func (f Field) Raw(b []byte) []byte { return b[f.Start:f.End:f.End] }

// Frame returns the frame of a length-delimited record, for [Splice].
func (f Field) Frame() Frame { return Frame{Len: f.TagEnd, Start: f.Value, End: f.ValueEnd} }

// ParseTag decodes the tag at b[off:].
func ParseTag(b []byte, off int) (protowire.Number, protowire.Type, int, error) {
	v, next, c := Varint(b, off)
	if c != 0 {
		return 0, 0, -1, errAt(off, c)
	}
	num := protowire.Number(v >> 3)
	if v>>3 == 0 || v>>3 > uint64(protowire.MaxValidNumber) {
		return 0, 0, -1, errAt(off, CodeFieldNumber)
	}
	return num, protowire.Type(v & 7), next, nil
}

// ParseField parses the record at b[off:], skipping groups nested up to
// [DefaultMaxDepth] deep.
func ParseField(b []byte, off int) (Field, error) {
	return ParseFieldDepth(b, off, DefaultMaxDepth)
}

// ParseFieldDepth is [ParseField] with a group nesting limit.
func ParseFieldDepth(b []byte, off, maxDepth int) (Field, error) {
	if f, ok := parseShort(b, off); ok {
		return f, nil
	}
	num, typ, p, err := ParseTag(b, off)
	if err != nil {
		return Field{}, err
	}
	f := Field{Num: num, Type: typ, Start: off, TagEnd: p, Value: p}
	f.ValueEnd, f.End, err = skipValue(b, p, num, typ, maxDepth)
	if err != nil {
		return Field{}, err
	}
	if typ == protowire.BytesType {
		f.Value, _ = lengthValue(b, p)
	}
	return f, nil
}

// lengthValue returns the payload span of the length-delimited value at p,
// which skipValue has already checked.
func lengthValue(b []byte, p int) (int, int) {
	n, q, _ := Varint(b, p)
	return q, q + int(n)
}

// skipValue returns the end of the value proper and the end of the record.
func skipValue(b []byte, off int, num protowire.Number, typ protowire.Type, depth int) (int, int, error) {
	switch typ {
	case protowire.VarintType:
		_, next, c := Varint(b, off)
		return next, next, codeErr(off, c)
	case protowire.Fixed32Type:
		return fixedEnd(b, off, 4)
	case protowire.Fixed64Type:
		return fixedEnd(b, off, 8)
	case protowire.BytesType:
		n, next, c := Varint(b, off)
		if c != 0 {
			return -1, -1, errAt(off, c)
		}
		if n > uint64(len(b)-next) {
			return -1, -1, errAt(off, CodeTruncated)
		}
		end := next + int(n)
		return end, end, nil
	case protowire.StartGroupType:
		return skipGroup(b, off, num, depth-1)
	case protowire.EndGroupType:
		return -1, -1, errAt(off, CodeEndGroup)
	}
	return -1, -1, errAt(off, CodeWireType)
}

func fixedEnd(b []byte, off, n int) (int, int, error) {
	if len(b)-off < n {
		return -1, -1, errAt(off, CodeTruncated)
	}
	return off + n, off + n, nil
}

func codeErr(off int, c Code) error {
	if c == 0 {
		return nil
	}
	return errAt(off, c)
}

// skipGroup skips the fields of a group up to its end-group tag.
func skipGroup(b []byte, off int, num protowire.Number, depth int) (int, int, error) {
	if depth < 0 {
		return -1, -1, errAt(off, CodeDepth)
	}
	for {
		if off >= len(b) {
			return -1, -1, errAt(off, CodeGroup)
		}
		n, typ, p, err := ParseTag(b, off)
		if err != nil {
			return -1, -1, err
		}
		if typ == protowire.EndGroupType {
			if n != num {
				return -1, -1, errAt(off, CodeGroup)
			}
			return off, p, nil
		}
		_, off, err = skipValue(b, p, n, typ, depth)
		if err != nil {
			return -1, -1, err
		}
	}
}

// Iter iterates over the records of a message. The zero Iter is empty.
//
//	it := wire.NewIter(b)
//	for it.Next() {
//		f := it.Field()
//		...
//	}
//	if err := it.Err(); err != nil { ... }
type Iter struct {
	b     []byte
	off   int
	depth int
	f     Field
	err   error
}

// NewIter returns an iterator over the records of b.
func NewIter(b []byte) Iter { return Iter{b: b, depth: DefaultMaxDepth} }

// NewIterAt returns an iterator over the records of b[start:end] whose
// offsets stay relative to b.
func NewIterAt(b []byte, start, end int) Iter {
	return Iter{b: b[:end], off: start, depth: DefaultMaxDepth}
}

// SetMaxDepth sets the group nesting limit.
func (it *Iter) SetMaxDepth(d int) { it.depth = d }

// Next advances to the next record and reports whether there is one. It
// returns false at the end of the data or on malformed data (see Err).
func (it *Iter) Next() bool {
	if it.off >= len(it.b) || it.err != nil {
		return false
	}
	if it.fast() {
		return true
	}
	f, err := ParseFieldDepth(it.b, it.off, it.depth)
	if err != nil {
		it.err = err
		return false
	}
	it.f, it.off = f, f.End
	return true
}

// fast parses the common records in place, like parseShort but writing
// straight into the iterator, which keeps the hot loops of the edits free of
// a call and a copy per record; everything else goes to ParseField.
func (it *Iter) fast() bool {
	b, off := it.b, it.off
	t := b[off]
	if t >= 0x80 || t < 8 {
		return false
	}
	p := off + 1
	end := -1
	val := p
	switch protowire.Type(t & 7) {
	case protowire.VarintType:
		end = VarintEnd(b, p)
	case protowire.BytesType:
		val, end = LenSpan(b, p)
	case protowire.Fixed64Type:
		if len(b)-p >= 8 {
			end = p + 8
		}
	case protowire.Fixed32Type:
		if len(b)-p >= 4 {
			end = p + 4
		}
	}
	if end < 0 {
		return false
	}
	it.f = Field{Num: protowire.Number(t >> 3), Type: protowire.Type(t & 7), Start: off, TagEnd: p, Value: val, ValueEnd: end, End: end}
	it.off = end
	return true
}

// parseShort parses the common records, those with one-byte tags that are
// not groups and, for length-delimited ones, lengths below 16384, and
// reports false for the rest (and for anything malformed), which ParseField
// handles in full.
func parseShort(b []byte, off int) (Field, bool) {
	if off < 0 || off >= len(b) {
		return Field{}, false
	}
	t := b[off]
	if t >= 0x80 || t < 8 {
		return Field{}, false
	}
	p := off + 1
	end := -1
	val := p
	switch protowire.Type(t & 7) {
	case protowire.VarintType:
		end = VarintEnd(b, p)
	case protowire.BytesType:
		val, end = LenSpan(b, p)
	case protowire.Fixed64Type:
		if len(b)-p >= 8 {
			end = p + 8
		}
	case protowire.Fixed32Type:
		if len(b)-p >= 4 {
			end = p + 4
		}
	}
	if end < 0 {
		return Field{}, false
	}
	return Field{Num: protowire.Number(t >> 3), Type: protowire.Type(t & 7), Start: off, TagEnd: p, Value: val, ValueEnd: end, End: end}, true
}

// VarintEnd returns the end of the varint at b[p:] when it is at most nine
// bytes long and complete, or -1: a fast path for skipping, whose callers
// fall back to Varint or ParseField for the rest. A one-byte varint, the
// most common, is answered before the loop.
func VarintEnd(b []byte, p int) int {
	if p < len(b) && b[p] < 0x80 {
		return p + 1
	}
	for i := p + 1; i < len(b) && i < p+9; i++ {
		if b[i] < 0x80 {
			return i + 1
		}
	}
	return -1
}

// LenSpan returns the payload span of the length prefix at b[p:] when the
// prefix takes one or two bytes and the payload fits, or end -1: a fast
// path whose callers fall back to ParseField for the rest.
func LenSpan(b []byte, p int) (int, int) {
	if p >= len(b) {
		return 0, -1
	}
	n, q := int(b[p]), p+1
	if n >= 0x80 {
		if q >= len(b) || b[q] >= 0x80 {
			return 0, -1
		}
		n, q = n&0x7f|int(b[q])<<7, q+1
	}
	if n > len(b)-q {
		return 0, -1
	}
	return q, q + n
}

// Field returns the current record.
func (it *Iter) Field() Field { return it.f }

// Offset returns the offset where the next record starts.
func (it *Iter) Offset() int { return it.off }

// Err returns the error that stopped the iteration, if any.
func (it *Iter) Err() error { return it.err }
