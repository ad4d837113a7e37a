package dynamic

import (
	"github.com/rpckit/rpckit/wire"
	"google.golang.org/protobuf/encoding/protowire"
)

// skipOthers returns the offset of the first record at or after p in b, a
// message of t, that a search for field f must parse: one of f, one of
// another member of f's oneof, or one beyond the fast path (a tag longer
// than a byte, a group, bad data). Records of other fields are skipped by
// tag and length alone, with no lookup of the field they belong to.
func (t *Type) skipOthers(b []byte, p int, f *Field) int {
	num, oneof := uint32(f.Num), f.Oneof
	for p < len(b) {
		c := b[p]
		if c < 8 || c >= 0x80 || uint32(c>>3) == num || (oneof >= 0 && t.inOneof(c, oneof)) {
			return p
		}
		var next int
		if c&7 == byte(protowire.BytesType) {
			_, next = wire.LenSpan(b, p+1) // inline: most records are strings and messages
		} else {
			next = skipRecord(b, p+1, c&7)
		}
		if next < 0 {
			return p
		}
		p = next
	}
	return p
}

// inOneof reports whether the one-byte tag c is of a member of oneof.
func (t *Type) inOneof(c byte, oneof int) bool {
	g := t.tags[c].f
	return g != nil && g.Oneof == oneof
}

// skipRecord returns the end of the value of wire type wt at b[p:], or -1
// for groups, bad wire types and anything truncated or long: a fast path
// whose callers parse such records in full.
func skipRecord(b []byte, p int, wt byte) int {
	switch wt {
	case byte(protowire.BytesType):
		_, end := wire.LenSpan(b, p)
		return end
	case byte(protowire.VarintType):
		return wire.VarintEnd(b, p)
	case byte(protowire.Fixed64Type):
		if len(b)-p >= 8 {
			return p + 8
		}
	case byte(protowire.Fixed32Type):
		if len(b)-p >= 4 {
			return p + 4
		}
	}
	return -1
}
