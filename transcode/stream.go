package transcode

import (
	"bytes"
	"errors"
	"io"
	"unicode/utf8"

	"github.com/rpckit/rpckit/dynamic"
)

// minStreamBuffer is the first size of a Decoder's buffer.
const minStreamBuffer = 4096

// Decoder reads a sequence of JSON values, each a message of one type,
// from a reader: separated by whitespace as in NDJSON, or concatenated as
// grpcurl writes them. It holds one value at a time, so its buffer grows
// only to about the size of the largest value. Error positions are those
// in the whole stream.
type Decoder struct {
	r    io.Reader
	t    *dynamic.Type
	opts UnmarshalOptions

	buf        []byte // buf[start:end] is read and not yet decoded
	start, end int
	base       streamPos // position of buf[0] in the stream
	rerr       error     // the reader's error, once it has returned one

	// The scan for the end of the current value, which starts at
	// buf[start] and has been looked at up to buf[scan].
	scan    int
	began   bool
	first   byte // the value's first byte
	nest    int  // open arrays and objects
	inStr   bool
	escaped bool
}

// NewDecoder returns a Decoder of messages of type t from r, converted
// with the options o.
func NewDecoder(r io.Reader, t *dynamic.Type, o UnmarshalOptions) *Decoder {
	return &Decoder{r: r, t: t, opts: o}
}

// Next converts the next JSON value to wire bytes and appends them to dst.
// It returns io.EOF when the stream ends cleanly between values, and an
// *Error wrapping io.ErrUnexpectedEOF when it ends inside one. After an
// error in a complete value, the next call goes on with the value after
// it; errors from the reader are returned as they are.
func (d *Decoder) Next(dst []byte) ([]byte, error) {
	truncated, err := d.findValue()
	if err != nil {
		return dst, err
	}
	s, e := d.start, d.scan
	d.start, d.began = e, false
	dec := decoder{in: d.buf[s:e], out: dst}
	dec.init(d.opts)
	out, err := dec.top(d.t)
	if truncated && (err == nil || !errors.Is(err, io.ErrUnexpectedEOF)) {
		err = dec.errEOF(e-s, "unexpected end of input")
	}
	if err != nil {
		return dst, dec.finish(err, d.posOf(s))
	}
	return out, nil
}

// findValue reads until buf[start:scan] holds one whole value, or the
// stream ends; truncated reports a value cut short by the end.
func (d *Decoder) findValue() (truncated bool, err error) {
	for {
		if d.scanValue() {
			return false, nil
		}
		if d.rerr != nil {
			if d.rerr != io.EOF {
				return false, d.rerr
			}
			if !d.began {
				d.start = d.end
				return false, io.EOF
			}
			d.began = false
			return d.nest > 0 || d.inStr, nil
		}
		d.fill()
	}
}

// fill reads more input, first making room: the decoded bytes are
// dropped, and the buffer doubles when the current value fills it.
func (d *Decoder) fill() {
	if d.start > 0 && (d.end == len(d.buf) || d.start == d.end) {
		d.advance(d.start)
		n := copy(d.buf, d.buf[d.start:d.end])
		d.scan -= d.start
		d.start, d.end = 0, n
	}
	if d.end == len(d.buf) {
		size := max(2*len(d.buf), minStreamBuffer)
		buf := make([]byte, size)
		copy(buf, d.buf[:d.end])
		d.buf = buf
	}
	for range maxEmptyReads {
		n, err := d.r.Read(d.buf[d.end:])
		d.end += n
		if err != nil {
			d.rerr = err
		}
		if n > 0 || err != nil {
			return
		}
	}
	d.rerr = io.ErrNoProgress
}

// maxEmptyReads is how many reads returning nothing and no error in a row
// a Decoder takes before giving up with io.ErrNoProgress.
const maxEmptyReads = 100

// advance moves the stream position of buf[0] past n bytes.
func (d *Decoder) advance(n int) {
	d.base = posAfter(d.base, d.buf[:n])
}

// posOf returns the stream position of buf[i], for errors only: it counts
// from buf[0].
func (d *Decoder) posOf(i int) streamPos {
	return posAfter(d.base, d.buf[:i])
}

// posAfter returns the position after b, which starts at p. line counts
// the newlines before, col the runes since the last one.
func posAfter(p streamPos, b []byte) streamPos {
	p.off += len(b)
	if n := bytes.Count(b, []byte{'\n'}); n > 0 {
		p.line += n
		b = b[bytes.LastIndexByte(b, '\n')+1:]
		p.col = 0
	}
	p.col += utf8.RuneCount(b)
	return p
}

// scanValue goes on scanning the current value through the buffered input
// and reports whether it has found its end (at d.scan).
func (d *Decoder) scanValue() bool {
	buf := d.buf[:d.end]
	i := d.scan
	if !d.began {
		i = d.start
		for i < len(buf) && isSpace(buf[i]) {
			i++
		}
		d.start, d.scan = i, i
		if i == len(buf) {
			return false
		}
		d.began, d.first, d.nest, d.inStr, d.escaped = true, buf[i], 0, false, false
		switch d.first {
		case '{', '[':
			d.nest = 1
		case '"':
			d.inStr = true
		case '}', ']', ',', ':':
			d.scan = i + 1
			return true
		}
		i++
	}
	switch {
	case d.nest > 0:
		i = d.scanNested(buf, i)
	case d.inStr:
		i = d.scanString(buf, i)
	default:
		for i < len(buf) && !isSpace(buf[i]) && !isStructural(buf[i]) {
			i++
		}
		if i == len(buf) {
			d.scan = i
			return d.rerr != nil
		}
	}
	d.scan = i
	return d.nest == 0 && !d.inStr && i <= len(buf)
}

// scanNested scans an array or object up to its end, or to the end of buf
// with d.nest > 0.
func (d *Decoder) scanNested(buf []byte, i int) int {
	for ; i < len(buf); i++ {
		if d.inStr {
			if i = d.scanString(buf, i); d.inStr {
				return i
			}
			i--
			continue
		}
		switch buf[i] {
		case '"':
			d.inStr = true
		case '{', '[':
			d.nest++
		case '}', ']':
			if d.nest--; d.nest == 0 {
				return i + 1
			}
		}
	}
	return i
}

// scanString scans a string from inside it up to just past its closing
// quote, or to the end of buf with d.inStr still set.
func (d *Decoder) scanString(buf []byte, i int) int {
	for ; i < len(buf); i++ {
		switch c := buf[i]; {
		case d.escaped:
			d.escaped = false
		case c == '\\':
			d.escaped = true
		case c == '"':
			d.inStr = false
			return i + 1
		}
	}
	return i
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' }

func isStructural(c byte) bool {
	return c == '{' || c == '}' || c == '[' || c == ']' || c == ',' || c == ':' || c == '"'
}
