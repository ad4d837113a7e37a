package leanhttp

import (
	"fmt"
	"io"
)

// readBody reads the body resp frames, at most maxBody bytes: appended to
// dst when keep, discarded otherwise.
func (rd *reader) readBody(resp *response, dst []byte, keep bool) ([]byte, error) {
	switch {
	case resp.noBody:
		return dst, nil
	case resp.chunked:
		return rd.readChunked(dst, keep)
	case resp.untilEOF:
		return rd.readToEOF(dst, keep)
	}
	if resp.length > int64(rd.maxBody) {
		return dst, rd.tooLarge()
	}
	dst, got, err := rd.readN(int(resp.length), dst, keep)
	if err != nil {
		return dst, rd.bodyError(err, fmt.Sprintf("%d of %d bytes", got, resp.length))
	}
	return dst, nil
}

// readN reads n bytes of body; it returns how many it read.
func (rd *reader) readN(n int, dst []byte, keep bool) ([]byte, int, error) {
	got := 0
	for got < n {
		if rd.r == rd.w {
			if err := rd.fill(); err != nil {
				return dst, got, err
			}
		}
		k := min(n-got, rd.w-rd.r)
		if keep {
			dst = append(dst, rd.buf[rd.r:rd.r+k]...)
		}
		rd.r += k
		got += k
	}
	return dst, got, nil
}

// readToEOF reads a body that ends with the connection.
func (rd *reader) readToEOF(dst []byte, keep bool) ([]byte, error) {
	total := 0
	for {
		k := rd.w - rd.r
		total += k
		if total > rd.maxBody {
			return dst, rd.tooLarge()
		}
		if keep {
			dst = append(dst, rd.buf[rd.r:rd.w]...)
		}
		rd.r = rd.w
		switch err := rd.fill(); err {
		case nil:
		case io.EOF:
			return dst, nil
		default:
			return dst, rd.bodyError(err, fmt.Sprintf("after %d bytes", total))
		}
	}
}

// readChunked reads a chunked body and its trailers (RFC 9112 7.1).
func (rd *reader) readChunked(dst []byte, keep bool) ([]byte, error) {
	total := 0
	for {
		line, err := rd.line()
		if err != nil {
			return dst, rd.bodyError(err, "in a chunk size")
		}
		size, ok := chunkSize(line)
		if !ok {
			return dst, fmt.Errorf("leanhttp: malformed chunk size %q", clip(line))
		}
		if size == 0 {
			return dst, rd.trailers()
		}
		if int64(total)+size > int64(rd.maxBody) {
			return dst, rd.tooLarge()
		}
		total += int(size)
		if dst, _, err = rd.readN(int(size), dst, keep); err != nil {
			return dst, rd.bodyError(err, "in a chunk")
		}
		if line, err = rd.line(); err != nil || len(line) != 0 {
			return dst, rd.chunkEnd(err)
		}
	}
}

func (rd *reader) chunkEnd(err error) error {
	if err != nil {
		return rd.bodyError(err, "after a chunk")
	}
	return fmt.Errorf("leanhttp: a chunk longer than its size")
}

// trailers skips the trailer section, up to its blank line.
func (rd *reader) trailers() error {
	total := 0
	for {
		line, err := rd.line()
		if err != nil {
			return rd.bodyError(err, "in the trailers")
		}
		if len(line) == 0 {
			return nil
		}
		if total += len(line); total > rd.maxHead {
			return fmt.Errorf("leanhttp: response trailers larger than %d bytes", rd.maxHead)
		}
	}
}

// line reads the next line, without its CRLF or LF. It is valid until the
// next read.
func (rd *reader) line() ([]byte, error) {
	for {
		if i := indexLF(rd.buf[rd.r:rd.w]); i >= 0 {
			line, _ := nextLine(rd.buf[rd.r : rd.r+i+1])
			rd.r += i + 1
			return line, nil
		}
		if err := rd.fill(); err != nil {
			return nil, err
		}
	}
}

func indexLF(b []byte) int {
	for i, c := range b {
		if c == '\n' {
			return i
		}
	}
	return -1
}

// chunkSize parses a chunk-size line: hex digits, then optional
// extensions after ';'.
func chunkSize(l []byte) (int64, bool) {
	var n int64
	i := 0
	for ; i < len(l); i++ {
		v := unhex(l[i])
		if v < 0 {
			break
		}
		if i >= 15 {
			return 0, false
		}
		n = n<<4 | int64(v)
	}
	if i == 0 {
		return 0, false
	}
	for ; i < len(l) && (l[i] == ' ' || l[i] == '\t'); i++ {
	}
	return n, i == len(l) || l[i] == ';'
}

func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

func (rd *reader) tooLarge() error {
	return fmt.Errorf("leanhttp: response body larger than the limit of %d bytes", rd.maxBody)
}

// bodyError is a failed read of the body, where says where.
func (rd *reader) bodyError(err error, where string) error {
	switch err {
	case io.EOF:
		return fmt.Errorf("leanhttp: response body cut short (%s): %w", where, io.ErrUnexpectedEOF)
	case errFull:
		return fmt.Errorf("leanhttp: a chunk-size or trailer line longer than %d bytes", rd.maxHead)
	}
	return fmt.Errorf("leanhttp: reading the response body: %w", err)
}
