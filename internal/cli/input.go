package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// messageReader reads a sequence of JSON values (one request message each)
// incrementally, so messages typed at a terminal are sent as they complete.
type messageReader struct {
	dec   *json.Decoder
	lines *lineIndex
	n     int
}

// openInput interprets -d: a JSON text, @file, or @- for stdin.
func openInput(data string, stdin io.Reader) (*messageReader, func(), error) {
	r, closer, err := openRaw(data, stdin)
	if err != nil {
		return nil, nil, err
	}
	return newMessageReader(r), closer, nil
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

func newMessageReader(r io.Reader) *messageReader {
	li := &lineIndex{r: r}
	return &messageReader{dec: json.NewDecoder(li), lines: li}
}

// next returns the next JSON value, or io.EOF when the input ends.
func (m *messageReader) next() (json.RawMessage, error) {
	var raw json.RawMessage
	err := m.dec.Decode(&raw)
	if err == io.EOF {
		return nil, io.EOF
	}
	m.n++
	if err != nil {
		return nil, m.syntaxError(err)
	}
	if len(raw) == 0 || raw[0] != '{' {
		return nil, fmt.Errorf("request %d (line %d): want a JSON object, got %s", m.n, m.lines.line(m.dec.InputOffset()), abbreviate(raw))
	}
	return raw, nil
}

func (m *messageReader) syntaxError(err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := m.lines.position(max(se.Offset-1, 0))
		return fmt.Errorf("request %d: invalid JSON at line %d col %d: %v", m.n, line, col, se)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("request %d: invalid JSON: input ends inside a value", m.n)
	}
	return fmt.Errorf("request %d: %w", m.n, err)
}

func abbreviate(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "..."
	}
	return string(b)
}

// lineIndex passes reads through and remembers where lines start, so a byte
// offset can be turned into line:col without keeping the input.
type lineIndex struct {
	r      io.Reader
	read   int64
	starts []int64 // offsets just after each newline
}

func (l *lineIndex) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	for i := 0; i < n; {
		j := bytes.IndexByte(p[i:n], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		l.starts = append(l.starts, l.read+int64(i))
	}
	l.read += int64(n)
	return n, err
}

func (l *lineIndex) line(off int64) int {
	line, _ := l.position(off)
	return line
}

// position gives the 1-based line and column of the byte at off.
func (l *lineIndex) position(off int64) (line, col int) {
	start := int64(0)
	line = 1
	for _, s := range l.starts {
		if s > off {
			break
		}
		start = s
		line++
	}
	return line, int(off-start) + 1
}
