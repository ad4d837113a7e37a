package wire

// Thrift values carry no byte lengths around structs or containers
// (containers count elements, structs end with Stop), so replacing a
// field's value needs no fix-up of the bytes around it. Deleting a field
// does in the compact protocol: the next field's id is a delta from the
// deleted one's.

// Replace appends to dst the bytes of b with b[start:end] replaced by
// repl. Deleting is a nil repl, inserting an empty start..end. The output
// is allocated at most once, when dst lacks capacity.
func Replace(dst, b []byte, start, end int, repl []byte) []byte {
	dst = reserve(dst, len(b)-(end-start)+len(repl))
	dst = append(dst, b[:start]...)
	dst = append(dst, repl...)
	return append(dst, b[end:]...)
}

// ReplaceValue appends to dst the bytes of b with the value of field f
// replaced by value, which must be encoded in b's protocol and be of f's
// type. A compact bool field keeps its value in its header: replace the
// whole field (f.Start..f.End) with [Protocol.AppendBoolField]'s bytes.
func ReplaceValue(dst, b []byte, f Field, value []byte) []byte {
	return Replace(dst, b, f.Value, f.End, value)
}

// DeleteField appends to dst the bytes of b without field f, prev being
// the id of the field before f in its struct (0 when f is the first). In
// the compact protocol the header of the field after f is re-encoded
// against prev; reading it can fail on malformed input.
func (p Protocol) DeleteField(dst, b []byte, f Field, prev int16) ([]byte, error) {
	if p == Binary {
		return Replace(dst, b, f.Start, f.End, nil), nil
	}
	h, v, err := cmpFieldHeader(b, f.End, f.ID)
	if err != nil {
		return nil, err
	}
	if h.Type == Stop {
		return Replace(dst, b, f.Start, f.End, nil), nil
	}
	ct := compactCode(h.Type)
	if h.Type == Bool && !h.Bool {
		ct = ctFalse
	}
	var buf [4]byte
	return Replace(dst, b, f.Start, v, cmpAppendFieldHeader(buf[:0], ct, h.ID, prev)), nil
}

// reserve returns dst with room for n more bytes.
func reserve(dst []byte, n int) []byte {
	if n < 0 || cap(dst)-len(dst) >= n {
		return dst
	}
	out := make([]byte, len(dst), len(dst)+n)
	copy(out, dst)
	return out
}
