package cli

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rpckit/rpckit/invoke"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// messageReader reads a sequence of JSON values (one request message each)
// incrementally, so messages typed at a terminal are sent as they complete.
// A message may be at most limit bytes; the input is read no further than
// that, nor past the first byte that cannot be JSON.
//
// Each value is parsed once, by convert, which turns it into what next
// returns (the wire form of the message); only a value convert refuses is
// checked by encoding/json too, so that a syntax error is reported where
// the input has it. With no convert, next returns the JSON, checked by
// encoding/json.
type messageReader struct {
	buf     inputBuffer
	limit   int
	what    string // "request": what a message is called in errors
	subject string // what convert's errors are about; "" means "request 2"
	convert func(js []byte) ([]byte, error)
	scan    jsonScan
	err     error // sticky: once the input is bad, it stays bad
	n       int
}

// openInput interprets -d: a JSON text, @file, or @- for stdin. Each
// message may be at most limit bytes, and is turned by convert into what
// next returns.
func openInput(data string, stdin io.Reader, limit int, convert func([]byte) ([]byte, error)) (*messageReader, func(), error) {
	r, closer, err := openRaw(data, stdin)
	if err != nil {
		return nil, nil, err
	}
	m := newMessageReader(r)
	m.limit, m.convert = limit, convert
	return m, closer, nil
}

// encoder is the convert of a messageReader of messages of type md.
func encoder(codec invoke.JSONCodec, md protoreflect.MessageDescriptor) func([]byte) ([]byte, error) {
	return func(js []byte) ([]byte, error) {
		return codec.Encode(make([]byte, 0, len(js)), md, js) // seldom longer than the JSON
	}
}

// openRaw opens a data argument: literal text, @file, or @- for stdin.
func openRaw(data string, stdin io.Reader) (io.Reader, func(), error) {
	switch {
	case data == "@-":
		return stdin, func() {}, nil
	case strings.HasPrefix(data, "@"):
		f, err := os.Open(data[1:])
		if err != nil {
			return nil, nil, fmt.Errorf("request data: %w", err)
		}
		return f, func() { f.Close() }, nil
	}
	return strings.NewReader(data), func() {}, nil
}

// newMessageReader reads messages of up to defaultMaxMsgSize bytes from r.
func newMessageReader(r io.Reader) *messageReader {
	return &messageReader{buf: inputBuffer{r: r, sizeHint: sizeHint(r)}, limit: defaultMaxMsgSize, what: "request"}
}

// next returns the next value converted, or io.EOF when the input ends.
// The value stays valid after later calls.
func (m *messageReader) next() ([]byte, error) {
	if m.err != nil {
		return nil, m.err
	}
	raw, err := m.value()
	if err != nil && err != io.EOF {
		m.err = err
	}
	return raw, err
}

func (m *messageReader) value() ([]byte, error) {
	m.scan = jsonScan{}
	for {
		end, bad := m.scan.scan(m.buf.pending())
		switch {
		case bad >= 0:
			m.n++
			return nil, m.badByte(bad)
		case end >= 0:
			m.n++
			return m.complete(end)
		}
		if err := m.fill(); err == io.EOF {
			return m.atEOF()
		} else if err != nil {
			return nil, err
		}
	}
}

// fill reads more of the current message, up to the limit.
func (m *messageReader) fill() error {
	if len(m.buf.pending()) > m.limit {
		m.n++
		return tooLarge(fmt.Sprintf("%s %d", m.what, m.n), m.limit)
	}
	err := m.buf.fill(m.limit + 1)
	if err != nil && err != io.EOF {
		return fmt.Errorf("%s %d: %w", m.what, m.n+1, err)
	}
	return err
}

// atEOF ends the input: nothing but space is the end, a value the input
// stopped in the middle of is an error, and a number or literal at the top
// level ends with the input.
func (m *messageReader) atEOF() ([]byte, error) {
	switch {
	case !m.scan.started:
		return nil, io.EOF
	case m.scan.bare:
		m.n++
		return m.complete(len(m.buf.pending()))
	}
	m.n++
	return nil, fmt.Errorf("%s %d: invalid JSON: input ends inside a value", m.what, m.n)
}

// complete converts the value that ends at end and takes it from the
// buffer.
func (m *messageReader) complete(end int) ([]byte, error) {
	start := m.scan.start
	if end-start > m.limit {
		return nil, tooLarge(fmt.Sprintf("%s %d", m.what, m.n), m.limit)
	}
	raw := m.buf.pending()[start:end]
	if raw[0] != '{' {
		return nil, m.notObject(start, end, raw)
	}
	out, err := m.convertValue(raw)
	if err != nil && !json.Valid(raw) {
		return nil, m.syntaxError(start, raw)
	}
	m.buf.take(end)
	if err != nil {
		return nil, &inputError{subject: cmp.Or(m.subject, fmt.Sprintf("%s %d", m.what, m.n)), err: err}
	}
	return out, nil
}

// convertValue converts raw, an object, with convert, or checks it is JSON.
func (m *messageReader) convertValue(raw []byte) ([]byte, error) {
	if m.convert != nil {
		return m.convert(raw)
	}
	if !json.Valid(raw) {
		return nil, errors.New("invalid JSON")
	}
	return raw, nil
}

// notObject is the error for raw, a JSON value that is not an object.
func (m *messageReader) notObject(start, end int, raw []byte) error {
	if !json.Valid(raw) {
		return m.syntaxError(start, raw)
	}
	m.buf.take(end)
	line, _ := m.buf.position(end - 1)
	return fmt.Errorf("%s %d (line %d): want a JSON object, got %s", m.what, m.n, line, abbreviate(raw))
}

// syntaxError says where raw, which starts at start in the pending bytes,
// stops being JSON.
func (m *messageReader) syntaxError(start int, raw []byte) error {
	var v struct{}
	err := json.Unmarshal(raw, &v)
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return fmt.Errorf("%s %d: invalid JSON: %v", m.what, m.n, err)
	}
	line, col := m.buf.position(start + max(int(se.Offset)-1, 0))
	return fmt.Errorf("%s %d: invalid JSON at line %d col %d: %v", m.what, m.n, line, col, se)
}

func (m *messageReader) badByte(i int) error {
	line, col := m.buf.position(i)
	c := m.buf.pending()[i]
	return fmt.Errorf("%s %d: invalid JSON at line %d col %d: invalid character %s %s", m.what, m.n, line, col, quoteByte(c), m.scan.context())
}

// quoteByte writes c as encoding/json does in its errors: '\x00', 'a'.
func quoteByte(c byte) string {
	if c == '\'' {
		return `'\''`
	}
	q := fmt.Sprintf("%+q", string(rune(c)))
	if c >= 0x80 {
		q = fmt.Sprintf(`"\x%02x"`, c)
	}
	return "'" + q[1:len(q)-1] + "'"
}

func abbreviate(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "..."
	}
	return string(b)
}
