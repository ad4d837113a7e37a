package wire

// Thrift values carry no byte lengths around structs or containers
// (containers count elements, structs end with Stop), so replacing a
// field's value needs no fix-up of the bytes around it.

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

// reserve returns dst with room for n more bytes.
func reserve(dst []byte, n int) []byte {
	if n < 0 || cap(dst)-len(dst) >= n {
		return dst
	}
	out := make([]byte, len(dst), len(dst)+n)
	copy(out, dst)
	return out
}
