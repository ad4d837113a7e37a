package cli

import (
	"context"
	"io"
	"os"
)

// interruptible makes reads of r end with the context's error once ctx is
// done, for stdin that may never deliver (a terminal, a pipe left open):
// a read blocked in the system cannot be called off, so each read runs in
// its own goroutine, into a buffer of the reader's own. A regular file, or
// a nil reader, is returned as it is.
func interruptible(ctx context.Context, r io.Reader) io.Reader {
	if r == nil || isRegularFile(r) {
		return r
	}
	return &ctxReader{ctx: ctx, r: r, done: make(chan stdinRead, 1)}
}

func isRegularFile(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode().IsRegular()
}

type stdinRead struct {
	n   int
	err error
}

type ctxReader struct {
	ctx     context.Context
	r       io.Reader
	buf     []byte // the read in flight fills it
	left    []byte // what the last read got that the caller has not taken
	err     error  // the last read's error, given after left
	pending bool
	done    chan stdinRead
}

const ctxReadSize = 64 << 10

func (c *ctxReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if len(c.left) > 0 {
		return c.take(p), nil
	}
	if c.err != nil {
		return 0, c.err
	}
	if !c.pending {
		c.start()
	}
	select {
	case <-c.ctx.Done():
		return 0, c.ctx.Err()
	case res := <-c.done:
		c.pending = false
		c.left, c.err = c.buf[:res.n], res.err
	}
	if len(c.left) == 0 {
		return 0, c.err
	}
	return c.take(p), nil
}

func (c *ctxReader) start() {
	if c.buf == nil {
		c.buf = make([]byte, ctxReadSize)
	}
	c.pending = true
	buf := c.buf
	go func() {
		n, err := c.r.Read(buf)
		c.done <- stdinRead{n, err}
	}()
}

func (c *ctxReader) take(p []byte) int {
	n := copy(p, c.left)
	c.left = c.left[n:]
	return n
}
