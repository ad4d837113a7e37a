package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime/debug"
)

// inputBuffer holds what has been read of an input and not yet taken.
// Taken bytes are never written over, so slices of them handed out stay
// valid: when the buffer is full, what is pending moves to a new one.
type inputBuffer struct {
	r        io.Reader
	sizeHint int64 // what is left of the input, when known; else -1
	buf      []byte
	off      int  // buf[off:] is pending
	lines    int  // newlines before buf[0]
	col0     int  // bytes since the last newline before buf[0]
	eof      bool // r has ended
}

func (b *inputBuffer) pending() []byte { return b.buf[b.off:] }

// take marks the first n pending bytes as used.
func (b *inputBuffer) take(n int) { b.off += n }

// fill reads once more, into room for at most room pending bytes; it
// returns io.EOF, for good, when the input has ended.
func (b *inputBuffer) fill(room int) error {
	if b.eof {
		return io.EOF
	}
	if len(b.buf) == cap(b.buf) {
		b.grow(room)
	}
	n, err := b.r.Read(b.buf[len(b.buf):cap(b.buf)])
	b.buf = b.buf[:len(b.buf)+n]
	if err == io.EOF {
		b.eof = true
		if n > 0 {
			return nil
		}
	}
	return err
}

const (
	minInputBuffer   = 4 << 10
	fastGrowthUntil  = 8 << 20 // past this, buffers grow by a quarter, not double
	returnMemoryPast = 32 << 20
)

// grow moves the pending bytes to a new buffer with room for more: all of
// the input when its size is known, up to room.
func (b *inputBuffer) grow(room int) {
	pending := b.pending()
	size := 2 * len(pending)
	switch {
	case b.sizeHint >= 0:
		size = int(min(b.sizeHint+1, int64(room)))
		b.sizeHint = -1 // a hint serves once: the file may have grown
	case len(pending) > fastGrowthUntil:
		size = len(pending) + len(pending)/4
	}
	size = max(min(size, room), len(pending)+minInputBuffer)
	b.countLines(b.buf[:b.off])
	nb := make([]byte, len(pending), size)
	copy(nb, pending)
	b.buf, b.off = nb, 0
	if size > returnMemoryPast {
		debug.FreeOSMemory()
	}
}

// countLines adds what is in p, about to be dropped, to the line count.
func (b *inputBuffer) countLines(p []byte) {
	n := bytes.Count(p, []byte{'\n'})
	if n == 0 {
		b.col0 += len(p)
		return
	}
	b.lines += n
	b.col0 = len(p) - bytes.LastIndexByte(p, '\n') - 1
}

// position gives the 1-based line and column of pending byte i.
func (b *inputBuffer) position(i int) (line, col int) {
	seen := b.buf[:b.off+i]
	nl := bytes.Count(seen, []byte{'\n'})
	if nl == 0 {
		return b.lines + 1, b.col0 + len(seen) + 1
	}
	return b.lines + nl + 1, len(seen) - bytes.LastIndexByte(seen, '\n')
}

// sizeHint is how much is left to read of r when it is a regular file,
// else -1.
func sizeHint(r io.Reader) int64 {
	f, ok := r.(*os.File)
	if !ok {
		return -1
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return -1
	}
	at, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return -1
	}
	return max(fi.Size()-at, 0)
}

// readLimited reads all of r, which may be at most limit bytes. check,
// when not nil, sees each piece as it is read, and stops the read with its
// error at the first sign of bad input.
func readLimited(r io.Reader, limit int, check func([]byte) error) ([]byte, error) {
	hint := sizeHint(r)
	if hint > int64(limit) {
		return nil, tooLarge("input", limit)
	}
	cr := &checkedReader{r: r, check: check, left: int64(limit), limit: limit}
	if hint < 0 {
		return io.ReadAll(cr) // in pieces, copied once into a slice of the right size
	}
	var buf bytes.Buffer
	buf.Grow(int(hint) + bytes.MinRead)
	_, err := buf.ReadFrom(cr)
	return buf.Bytes(), err
}

// checkedReader passes on the reads of r, at most left bytes more, each
// piece seen by check first.
type checkedReader struct {
	r     io.Reader
	check func([]byte) error
	left  int64
	limit int
}

func (c *checkedReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if c.left < 0 {
		return 0, tooLarge("input", c.limit)
	}
	if c.check != nil && n > 0 {
		if cerr := c.check(p[:n]); cerr != nil {
			return 0, cerr
		}
	}
	return n, err
}

func tooLarge(what string, limit int) error {
	return fmt.Errorf("%s is larger than the %s limit (--max-msg-size)", what, formatSize(limit))
}
