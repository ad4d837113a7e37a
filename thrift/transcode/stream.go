package transcode

import (
	"errors"
	"io"

	"github.com/rpckit/rpckit/thrift/dynamic"
)

// maxStreamValue bounds one JSON object of a Decoder's stream.
const maxStreamValue = 64 << 20

// Decoder converts a stream of JSON objects, separated by whitespace or
// not at all (JSON Lines, or objects one after another), to Thrift structs
// of one type, one at a time. It reads ahead only as far as the object it
// converts; an object may be up to 64 MiB long.
type Decoder struct {
	r          io.Reader
	t          *dynamic.Type
	o          UnmarshalOptions
	buf        []byte
	start, end int   // the unread bytes: buf[start:end]
	base       int64 // the stream offset of buf[0]
	err        error // the reader's error, once it has returned one
}

// NewDecoder returns a Decoder of objects of the struct type t read from r.
func NewDecoder(r io.Reader, t *dynamic.Type, o UnmarshalOptions) *Decoder {
	return &Decoder{r: r, t: t, o: o}
}

// Next converts the next object and appends its Thrift bytes to dst. It
// returns io.EOF when the stream ends between objects; an *Error, whose
// Offset counts from the start of the stream and whose line and column
// count within the object, when the object is malformed.
func (d *Decoder) Next(dst []byte) ([]byte, error) {
	for {
		i := d.start
		for i < d.end && isSpace(d.buf[i]) {
			i++
		}
		d.start = i
		if n, ok := objectEnd(d.buf[i:d.end]); ok {
			out, err := d.o.UnmarshalAppend(dst, d.t, d.buf[i:i+n])
			if te, isErr := err.(*Error); isErr {
				te.Offset += int(d.base) + i
			}
			d.start = i + n
			return out, err
		}
		if d.err != nil {
			return dst, d.endErr()
		}
		if d.end-d.start >= maxStreamValue {
			return dst, &Error{Offset: int(d.base) + d.start, Msg: "object longer than 64 MiB"}
		}
		d.fill()
	}
}

// endErr is the error of a stream that ended with nothing or part of an
// object left.
func (d *Decoder) endErr() error {
	if d.err != io.EOF {
		return d.err
	}
	if d.start == d.end {
		return io.EOF
	}
	_, err := d.o.Unmarshal(d.t, d.buf[d.start:d.end]) // says what is wrong, and where
	if err == nil {
		err = errors.New("thrift/transcode: unexpected end of the stream")
	}
	return err
}

// fill reads more of the stream, first moving the unread bytes to the
// front of the buffer or growing it.
func (d *Decoder) fill() {
	if d.start > 0 {
		n := copy(d.buf, d.buf[d.start:d.end])
		d.base += int64(d.start)
		d.start, d.end = 0, n
	}
	if d.end == len(d.buf) {
		d.buf = append(d.buf, make([]byte, max(4096, len(d.buf)))...)
	}
	n, err := d.r.Read(d.buf[d.end:])
	d.end += n
	if err != nil {
		d.err = err
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' }

// objectEnd returns the length of the JSON value at the start of b when b
// holds all of it: an object or array up to its closing bracket, strings
// and their escapes skipped; anything else up to the next space or
// bracket, which Unmarshal then refuses with its position. It reports
// false when b may end before the value does.
func objectEnd(b []byte) (int, bool) {
	if len(b) == 0 {
		return 0, false
	}
	if b[0] != '{' && b[0] != '[' {
		for i, c := range b {
			if isSpace(c) || c == '{' || c == '[' {
				return max(i, 1), true
			}
		}
		return 0, false
	}
	depth, inString := 0, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			if depth--; depth == 0 {
				return i + 1, true
			}
		}
	}
	return 0, false
}
