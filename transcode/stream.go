package transcode

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math/bits"
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
//
// Each value is converted as soon as it may be whole in the buffer (an
// object whose last byte read is a closing bracket, say): a conversion
// that runs out of input is tried again once twice as much is buffered, so
// a value read in small pieces costs at most about three conversions.
// Only errors go through a scan for where the value ends.
type Decoder struct {
	r    io.Reader
	t    *dynamic.Type
	opts UnmarshalOptions

	buf        []byte // buf[start:end] is read and not yet decoded
	start, end int
	need       int       // bytes to buffer before trying to convert again
	base       streamPos // position of buf[0] in the stream
	rerr       error     // the reader's error, once it has returned one
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
	for {
		if d.skipSpace() {
			if avail := d.end - d.start; avail >= d.need && d.mayEnd() || d.rerr != nil {
				out, more, err := d.convert(dst)
				if !more {
					return out, err
				}
				d.need = 2 * avail
			}
		} else if d.rerr == io.EOF {
			return dst, io.EOF
		}
		if d.rerr != nil {
			return dst, d.rerr
		}
		d.fill()
	}
}

// Buffered returns the input read and not yet converted: the start of the
// next value, or whitespace before it. It is valid until the next call to
// Next.
func (d *Decoder) Buffered() []byte { return d.buf[d.start:d.end] }

// mayEnd reports whether the buffer may hold the whole value at start:
// the value is an array or object and the buffer ends with a closing
// bracket, or it is something else, or the buffer is full. Reading on
// when a value is plainly cut short saves converting it twice.
func (d *Decoder) mayEnd() bool {
	if c := d.buf[d.start]; c != '{' && c != '[' || d.start == 0 && d.end == len(d.buf) {
		return true
	}
	i := d.end - 1
	for isSpace(d.buf[i]) {
		i--
	}
	return d.buf[i] == '}' || d.buf[i] == ']'
}

// skipSpace skips the whitespace before the next value and reports
// whether the buffer holds a byte of it.
func (d *Decoder) skipSpace() bool {
	for d.start < d.end && isSpace(d.buf[d.start]) {
		d.start++
	}
	return d.start < d.end
}

// convert converts the value at buf[start]; more reports that it may need
// input not read yet.
func (d *Decoder) convert(dst []byte) (out []byte, more bool, err error) {
	s := d.start
	var dec decoder // field by field, as in UnmarshalAppend
	dec.in, dec.out = d.buf[s:d.end], dst
	dec.init(d.opts)
	dec.short = d.rerr == nil
	err = dec.message(d.t, false)
	if err == nil {
		// A number or literal at the end of the buffer may go on.
		if dec.pos == len(dec.in) && d.rerr == nil && !isStructural(dec.in[0]) {
			return dst, true, nil
		}
		d.start += dec.pos
		d.need = 0
		return dec.out, false, nil
	}
	if err == (shortInput{}) {
		return dst, true, nil
	}
	// The error may be the buffer's end cutting a token short: it counts
	// if the value ends in the buffer or the stream has ended.
	end, complete := valueEnd(d.buf[s:d.end], d.rerr != nil)
	switch {
	case !complete && d.rerr == nil:
		return dst, true, nil
	case !complete && d.rerr != io.EOF:
		return dst, false, d.rerr
	case !complete:
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			err = dec.errEOF(len(dec.in), "unexpected end of input")
		}
		d.start = d.end
	default:
		d.start = s + end
	}
	d.need = 0
	return dst, false, dec.finish(err, d.posOf(s))
}

// fill reads more input, first making room: the decoded bytes are
// dropped, and the buffer doubles when the current value fills it.
func (d *Decoder) fill() {
	if d.start > 0 && (d.end == len(d.buf) || d.start == d.end) {
		d.advance(d.start)
		n := copy(d.buf, d.buf[d.start:d.end])
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

// valueEnd returns the length of the JSON value at the start of b, or
// false if b holds only its beginning; atEnd says that nothing follows b.
// It only follows strings and brackets, for the Decoder to step over a
// value it could not convert.
func valueEnd(b []byte, atEnd bool) (int, bool) {
	var s jsonScan
	switch b[0] {
	case '{', '[':
		s.nest = 1
		i := s.nested(b, 1)
		return i, s.nest == 0
	case '"':
		s.inStr = true
		i := s.str(b, 1)
		return i, !s.inStr
	case '}', ']', ',', ':':
		return 1, true
	}
	i := 0
	for i < len(b) && !isSpace(b[i]) && !isStructural(b[i]) {
		i++
	}
	return i, i < len(b) || atEnd
}

// jsonScan is where a scan through strings and brackets is.
type jsonScan struct {
	nest    int // open arrays and objects
	inStr   bool
	escaped bool
}

// nested scans an array or object up to its end, or to the end of buf
// with s.nest > 0. It goes eight bytes at a time to the next quote or
// bracket.
func (s *jsonScan) nested(buf []byte, i int) int {
	for i < len(buf) {
		if s.inStr {
			if i = s.str(buf, i); s.inStr {
				return i
			}
			continue
		}
		for i+8 <= len(buf) {
			m := bracketMask(binary.LittleEndian.Uint64(buf[i:]))
			if m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i == len(buf) {
			return i
		}
		switch buf[i] {
		case '"':
			s.inStr = true
		case '{', '[':
			s.nest++
		case '}', ']':
			if s.nest--; s.nest == 0 {
				return i + 1
			}
		}
		i++
	}
	return i
}

// str scans a string from inside it up to just past its closing quote, or
// to the end of buf with s.inStr still set.
func (s *jsonScan) str(buf []byte, i int) int {
	for i < len(buf) {
		if s.escaped {
			s.escaped = false
			i++
			continue
		}
		for i+8 <= len(buf) {
			m := quoteMask(binary.LittleEndian.Uint64(buf[i:]))
			if m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i == len(buf) {
			return i
		}
		switch buf[i] {
		case '\\':
			s.escaped = true
		case '"':
			s.inStr = false
			return i + 1
		}
		i++
	}
	return i
}

// zeroMask marks the first zero byte of v (and maybe bytes above it).
func zeroMask(v uint64) uint64 { return (v - swarLo) &^ v & swarHi }

// bracketMask marks the first quote or bracket in the eight bytes of v;
// v|0x20 turns '[' and ']' into '{' and '}' and nothing else into them.
func bracketMask(v uint64) uint64 {
	lower := v | 0x20*swarLo
	return zeroMask(v^'"'*swarLo) | zeroMask(lower^'{'*swarLo) | zeroMask(lower^'}'*swarLo)
}

// quoteMask marks the first quote or backslash in the eight bytes of v.
func quoteMask(v uint64) uint64 {
	return zeroMask(v^'"'*swarLo) | zeroMask(v^'\\'*swarLo)
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' }

func isStructural(c byte) bool {
	return c == '{' || c == '}' || c == '[' || c == ']' || c == ',' || c == ':' || c == '"'
}
