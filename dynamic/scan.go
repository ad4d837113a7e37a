package dynamic

import (
	"github.com/rpckit/rpckit/wire"
	"google.golang.org/protobuf/encoding/protowire"
)

// finder walks the records of a message looking for one field: records of
// other fields are skipped without being parsed in full.
type finder struct {
	b   []byte
	off int
	num protowire.Number
	r   wire.Field // the current record, parsed in full when it is of num
	err error
}

// next advances to the next record; it reports the record's number and
// wire type, and whether r holds it in full.
func (s *finder) next() (protowire.Number, protowire.Type, bool) {
	if s.off >= len(s.b) || s.err != nil {
		return 0, 0, false
	}
	b, off := s.b, s.off
	if t := b[off]; t < 0x80 && t >= 8 && protowire.Number(t>>3) != s.num {
		next, p := -1, off+1
		switch protowire.Type(t & 7) {
		case protowire.VarintType:
			next = wire.VarintEnd(b, p)
		case protowire.BytesType:
			_, next = wire.LenSpan(b, p)
		case protowire.Fixed64Type:
			if len(b)-p >= 8 {
				next = p + 8
			}
		case protowire.Fixed32Type:
			if len(b)-p >= 4 {
				next = p + 4
			}
		}
		if next >= 0 {
			s.off = next
			return protowire.Number(t >> 3), protowire.Type(t & 7), true
		}
	}
	s.r, s.err = wire.ParseField(s.b, s.off)
	if s.err != nil {
		return 0, 0, false
	}
	s.off = s.r.End
	return s.r.Num, s.r.Type, true
}
