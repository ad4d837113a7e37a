package dynamic

import "google.golang.org/protobuf/encoding/protowire"

// tagOp says how a scan treats a record whose tag is one byte: the table
// of a Type has one per tag byte, so hot loops dispatch without looking the
// field up.
type tagOp struct {
	op uint8
	f  *Field // nil for unknown fields
}

const (
	opSlow    uint8 = iota // parse generically: groups, bad tags
	opVarint               // skip a varint
	opFixed32              // skip four bytes
	opFixed64              // skip eight bytes
	opBytes                // skip a length-delimited value
	opUTF8                 // a string that must be UTF-8
	opMessage              // a message of f.Message
	opPacked               // a packed run of f
)

// buildTags fills t's one-byte tag table.
func (t *Type) buildTags() {
	for c := 8; c < 128; c++ {
		num, wt := protowire.Number(c>>3), protowire.Type(c&7)
		f := t.FieldByNumber(num)
		if f != nil && !f.accepts(wt) {
			f = nil
		}
		t.tags[c] = tagOp{op: opFor(f, wt), f: f}
	}
}

func opFor(f *Field, wt protowire.Type) uint8 {
	switch {
	case f == nil || wt != protowire.BytesType:
	case f.Message != nil:
		return opMessage
	case f.UTF8:
		return opUTF8
	case f.Packable:
		return opPacked
	}
	switch wt {
	case protowire.VarintType:
		return opVarint
	case protowire.Fixed32Type:
		return opFixed32
	case protowire.Fixed64Type:
		return opFixed64
	case protowire.BytesType:
		return opBytes
	}
	return opSlow
}
