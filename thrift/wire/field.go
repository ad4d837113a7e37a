package wire

// FieldHeader is the header of a struct field. A header of type Stop ends
// the struct.
type FieldHeader struct {
	ID   int16
	Type Type
	// Bool is the value of a bool field. The compact protocol holds it in
	// the header and the field has no value bytes; in the binary protocol it
	// is the byte that follows the header, read ahead for symmetry.
	Bool bool
}

// ConsumeFieldHeader reads the field header at off. last is the id of the
// struct's previous field (0 before the first), from which the compact
// protocol encodes ids as deltas; the binary protocol ignores it. It
// returns the offset of the field's value (past the struct for Stop).
func (p Protocol) ConsumeFieldHeader(b []byte, off int, last int16) (FieldHeader, int, error) {
	if p == Compact {
		return cmpFieldHeader(b, off, last)
	}
	return binFieldHeader(b, off)
}

// AppendFieldHeader appends the header of field id of type t, last being
// the id of the struct's previous field (0 before the first). A compact
// bool field carries its value in the header: write it with
// [Protocol.AppendBoolField] (here a Bool header reads as true).
func (p Protocol) AppendFieldHeader(dst []byte, t Type, id, last int16) []byte {
	if p == Compact {
		return cmpAppendFieldHeader(dst, compactCode(t), id, last)
	}
	return binAppendFieldHeader(dst, t, id)
}

// AppendBoolField appends a whole bool field: its header and its value.
func (p Protocol) AppendBoolField(dst []byte, id, last int16, v bool) []byte {
	if p == Binary {
		return binAppendBool(binAppendFieldHeader(dst, Bool, id), v)
	}
	ct := byte(ctFalse)
	if v {
		ct = ctTrue
	}
	return cmpAppendFieldHeader(dst, ct, id, last)
}

// AppendStop appends the Stop that ends a struct.
func (p Protocol) AppendStop(dst []byte) []byte { return append(dst, 0) }
