package wire

import "google.golang.org/protobuf/encoding/protowire"

// Frame is a length-delimited record that encloses an edited span: Len is
// the offset of its length prefix, Start..End its payload.
type Frame struct {
	Len   int
	Start int
	End   int
}

// Splice appends to dst the bytes of b with b[start:end] replaced by repl
// and the length prefix of every frame re-encoded to fit. frames lists the
// enclosing length-delimited records from the outermost inwards; each must
// contain start..end, and the groups among the enclosers need no frame.
// Deleting is a nil repl, inserting an empty start..end. The output is
// allocated at most once, when dst lacks capacity.
func Splice(dst, b []byte, frames []Frame, start, end int, repl []byte) []byte {
	delta := len(repl) - (end - start)
	dst = reserve(dst, len(b)+growth(frames, delta))
	at := 0
	for i, f := range frames {
		dst = append(dst, b[at:f.Len]...)
		dst = protowire.AppendVarint(dst, uint64(f.End-f.Start+growth(frames[i+1:], delta)))
		at = f.Start
	}
	dst = append(dst, b[at:start]...)
	dst = append(dst, repl...)
	return append(dst, b[end:]...)
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

// AppendLen appends a length-delimited record: tag, length and payload.
func AppendLen(dst []byte, num protowire.Number, payload []byte) []byte {
	dst = protowire.AppendTag(dst, num, protowire.BytesType)
	dst = protowire.AppendVarint(dst, uint64(len(payload)))
	return append(dst, payload...)
}

// growth returns how much the outermost of frames grows when its innermost
// content grows by delta: delta plus the growth of every length prefix.
func growth(frames []Frame, delta int) int {
	for i := len(frames) - 1; i >= 0; i-- {
		f := frames[i]
		delta += protowire.SizeVarint(uint64(f.End-f.Start+delta)) - (f.Start - f.Len)
	}
	return delta
}
