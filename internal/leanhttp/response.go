package leanhttp

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// A reader reads responses from src into its buffer: buf[r:w] is read and
// not yet consumed. The buffer starts small and grows, up to maxHead
// bytes, only when a response's head does not fit.
type reader struct {
	src     io.Reader
	buf     []byte
	r, w    int
	got     bool // a byte arrived since the last reset
	maxHead int
	maxBody int
}

const initialBuffer = 4 << 10

func newReader(src io.Reader, maxHead, maxBody int) *reader {
	return &reader{src: src, buf: make([]byte, min(initialBuffer, maxHead)), maxHead: maxHead, maxBody: maxBody}
}

// reset readies the reader for a new response.
func (rd *reader) reset() { rd.r, rd.w, rd.got = 0, 0, false }

// fill reads more into the buffer, making room when it is full by moving
// the unread bytes to its start, or by growing it up to maxHead.
func (rd *reader) fill() error {
	if rd.r == rd.w {
		rd.r, rd.w = 0, 0
	}
	if rd.w == len(rd.buf) {
		switch {
		case rd.r > 0:
			rd.w = copy(rd.buf, rd.buf[rd.r:rd.w])
			rd.r = 0
		case len(rd.buf) < rd.maxHead:
			nb := make([]byte, min(2*len(rd.buf), rd.maxHead))
			rd.w = copy(nb, rd.buf[rd.r:rd.w])
			rd.r, rd.buf = 0, nb
		default:
			return errFull
		}
	}
	n, err := rd.src.Read(rd.buf[rd.w:])
	rd.w += n
	if n > 0 {
		rd.got = true
		return nil
	}
	if err == nil {
		err = io.ErrNoProgress
	}
	return err
}

// errFull is a line or head that does not fit the buffer.
var errFull = errors.New("buffer full")

// A response is what the head of a response says.
type response struct {
	status    int
	length    int64 // Content-Length, -1 for none
	chunked   bool
	untilEOF  bool // the body runs to the connection's close
	close     bool // the connection ends with this response
	noBody    bool
	http10    bool
	keepAlive bool // HTTP/1.0 with Connection: keep-alive
}

// readResponse reads one response, skipping interim (1xx) ones, and its
// body: appended to dst when keep, discarded otherwise.
func (rd *reader) readResponse(headReq bool, dst []byte, keep bool) (response, []byte, error) {
	for range 8 {
		resp, err := rd.readHead()
		if err != nil {
			return resp, dst, err
		}
		if resp.status == 101 {
			return resp, dst, fmt.Errorf("leanhttp: unexpected 101 Switching Protocols")
		}
		if resp.status >= 200 {
			resp.frame(headReq)
			dst, err = rd.readBody(&resp, dst, keep)
			return resp, dst, err
		}
	}
	return response{}, dst, fmt.Errorf("leanhttp: more than 8 interim (1xx) responses")
}

// frame decides how the body is delimited and whether the connection
// stays open after it (RFC 9112 6.3).
func (resp *response) frame(headReq bool) {
	if resp.http10 && !resp.keepAlive {
		resp.close = true
	}
	switch {
	case headReq || resp.status == 204 || resp.status == 304:
		resp.noBody = true
	case resp.chunked:
	case resp.untilEOF, resp.length < 0:
		resp.untilEOF, resp.close = true, true
	}
}

// readHead reads and parses the status line and headers.
func (rd *reader) readHead() (response, error) {
	end, err := rd.headEnd()
	if err != nil {
		return response{}, err
	}
	head := rd.buf[rd.r:end]
	rd.r = end
	return parseHead(head)
}

// headEnd reads until the buffer holds a whole head and returns the index
// just past its blank line.
func (rd *reader) headEnd() (int, error) {
	for {
		if i := blankLine(rd.buf[rd.r:rd.w]); i >= 0 {
			return rd.r + i, nil
		}
		if err := rd.fill(); err != nil {
			return 0, rd.headError(err)
		}
	}
}

func (rd *reader) headError(err error) error {
	switch {
	case err == errFull:
		return fmt.Errorf("leanhttp: response header larger than %d bytes", rd.maxHead)
	case err == io.EOF && rd.r == rd.w:
		return fmt.Errorf("leanhttp: connection closed before the response: %w", io.EOF)
	case err == io.EOF:
		return fmt.Errorf("leanhttp: response header cut short: %w", io.ErrUnexpectedEOF)
	}
	return fmt.Errorf("leanhttp: reading the response: %w", err)
}

// blankLine returns the index just past the first empty line of b (lines
// end in CRLF or LF), or -1.
func blankLine(b []byte) int {
	start := 0
	for {
		i := bytes.IndexByte(b[start:], '\n')
		if i < 0 {
			return -1
		}
		i += start
		if i == start || (i == start+1 && b[start] == '\r') {
			return i + 1
		}
		start = i + 1
	}
}

// nextLine cuts the first line off b, without its CRLF or LF.
func nextLine(b []byte) (line, rest []byte) {
	i := bytes.IndexByte(b, '\n')
	line, rest = b[:i], b[i+1:]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, rest
}

// parseHead parses a head that ends with its blank line.
func parseHead(head []byte) (response, error) {
	resp := response{length: -1}
	line, rest := nextLine(head)
	if err := resp.statusLine(line); err != nil {
		return resp, err
	}
	for {
		line, rest = nextLine(rest)
		if len(line) == 0 {
			return resp, nil
		}
		if err := resp.header(line); err != nil {
			return resp, err
		}
	}
}

// statusLine parses "HTTP/1.x NNN reason".
func (resp *response) statusLine(l []byte) error {
	if len(l) < 12 || string(l[:7]) != "HTTP/1." || (l[7] != '0' && l[7] != '1') || l[8] != ' ' ||
		!digits(l[9:12]) || (len(l) > 12 && l[12] != ' ') || l[9] == '0' {
		return fmt.Errorf("leanhttp: malformed status line %q", clip(l))
	}
	resp.http10 = l[7] == '0'
	resp.status = int(l[9]-'0')*100 + int(l[10]-'0')*10 + int(l[11]-'0')
	return nil
}

// header takes one header line.
func (resp *response) header(l []byte) error {
	colon := bytes.IndexByte(l, ':')
	if colon <= 0 || !tokenBytes(l[:colon]) {
		return fmt.Errorf("leanhttp: malformed header line %q", clip(l))
	}
	name, value := l[:colon], bytes.Trim(l[colon+1:], " \t")
	switch {
	case equalFold(name, "content-length"):
		return resp.contentLength(value)
	case equalFold(name, "transfer-encoding"):
		resp.chunked = lastToken(value, "chunked")
		resp.untilEOF = !resp.chunked
		resp.close = resp.close || resp.length >= 0 // both framings: RFC 9112 6.3
		resp.length = -1
	case equalFold(name, "connection"):
		resp.close = resp.close || hasTokenBytes(value, "close")
		resp.keepAlive = resp.keepAlive || hasTokenBytes(value, "keep-alive")
	}
	return nil
}

func (resp *response) contentLength(v []byte) error {
	if len(v) == 0 || len(v) > 18 || !digits(v) {
		return fmt.Errorf("leanhttp: bad Content-Length %q", clip(v))
	}
	var n int64
	for _, c := range v {
		n = n*10 + int64(c-'0')
	}
	if resp.length >= 0 && resp.length != n {
		return fmt.Errorf("leanhttp: two different Content-Lengths, %d and %d", resp.length, n)
	}
	if resp.chunked || resp.untilEOF {
		resp.close = true // Transfer-Encoding wins; the conn is not trusted after
		return nil
	}
	resp.length = n
	return nil
}

func digits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func tokenBytes(b []byte) bool {
	for _, c := range b {
		if !tokenByte(c) {
			return false
		}
	}
	return true
}

// equalFold reports whether b is lower, a lower-case ASCII name, in any
// case.
func equalFold(b []byte, lower string) bool {
	if len(b) != len(lower) {
		return false
	}
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// hasTokenBytes reports whether the comma-separated list v holds tok.
func hasTokenBytes(v []byte, tok string) bool {
	for len(v) > 0 {
		var t []byte
		t, v, _ = bytes.Cut(v, []byte{','})
		if equalFold(bytes.Trim(t, " \t"), tok) {
			return true
		}
	}
	return false
}

// lastToken reports whether the last element of the list v is tok.
func lastToken(v []byte, tok string) bool {
	if i := bytes.LastIndexByte(v, ','); i >= 0 {
		v = v[i+1:]
	}
	return equalFold(bytes.Trim(v, " \t"), tok)
}

// clip shortens what an error quotes.
func clip(b []byte) []byte {
	if len(b) > 64 {
		return b[:64]
	}
	return b
}
