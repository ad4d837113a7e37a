package client

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/rpckit/rpckit/internal/sysconn"
)

// conn is one pooled connection and its buffers, reused call after call.
type conn struct {
	nc       net.Conn
	wbuf     []byte
	rbuf     []byte // bytes read; rbuf[r:w] not consumed yet
	r, w     int
	deadline time.Time // the deadline set on nc, zero for none
	closed   chan struct{}

	// The watch of a context's Done channel (watch.go).
	mu                 sync.Mutex
	watched            [maxWatches]<-chan struct{}
	lastDone, callDone <-chan struct{}
	cut                bool
}

// close closes the connection and ends its watcher.
func (c *conn) close() {
	c.nc.Close()
	close(c.closed)
}

// dial connects to opts.Addr, through TLS if opts.TLS is set.
func dial(ctx context.Context, opts *Options) (*conn, error) {
	network, addr := "tcp", opts.Addr
	if path, ok := strings.CutPrefix(addr, "unix:"); ok {
		network, addr = "unix", path
	}
	ctx, cancel := context.WithTimeout(ctx, opts.DialTimeout)
	defer cancel()
	d := net.Dialer{}
	nc, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	nc = sysconn.Wrap(nc)
	if opts.TLS != nil {
		if nc, err = handshake(ctx, nc, opts.TLS, addr); err != nil {
			return nil, err
		}
	}
	return &conn{nc: nc, wbuf: make([]byte, 0, 512), rbuf: make([]byte, 4096), closed: make(chan struct{})}, nil
}

func handshake(ctx context.Context, nc net.Conn, cfg *tls.Config, addr string) (net.Conn, error) {
	if cfg.ServerName == "" {
		cfg = cfg.Clone()
		cfg.ServerName, _, _ = net.SplitHostPort(addr)
	}
	tc := tls.Client(nc, cfg)
	if err := tc.HandshakeContext(ctx); err != nil {
		nc.Close()
		return nil, fmt.Errorf("tls handshake with %s: %w", addr, err)
	}
	return tc, nil
}

// setDeadline sets d on the connection unless it is already set.
func (c *conn) setDeadline(d time.Time) error {
	if d.Equal(c.deadline) {
		return nil
	}
	c.deadline = d
	return c.nc.SetDeadline(d)
}

// buffered returns the unconsumed bytes read so far.
func (c *conn) buffered() []byte { return c.rbuf[c.r:c.w] }

// fill reads until at least n bytes are buffered, growing the buffer up
// to limit bytes. It keeps the unconsumed bytes at the buffer's start.
func (c *conn) fill(n, limit int) error {
	if c.w-c.r >= n {
		return nil
	}
	if n > limit {
		return ErrFrameTooLarge
	}
	c.compact(n, limit)
	for c.w-c.r < n {
		k, err := c.nc.Read(c.rbuf[c.w:])
		c.w += k
		if err != nil && c.w-c.r < n {
			return readError(err, c.w-c.r)
		}
	}
	return nil
}

// readMore reads what arrives next (at least one byte), growing the
// buffer when it is full, up to limit unconsumed bytes.
func (c *conn) readMore(limit int) error {
	have := c.w - c.r
	if have >= limit {
		return ErrFrameTooLarge
	}
	c.compact(min(max(have+have/2, have+4096), limit), limit)
	k, err := c.nc.Read(c.rbuf[c.w:])
	c.w += k
	if k == 0 && err != nil {
		return readError(err, have)
	}
	return nil
}

// compact moves the unconsumed bytes to the start of the buffer and
// makes room for n of them, growing it to at most limit bytes.
func (c *conn) compact(n, limit int) {
	if c.r > 0 {
		c.w = copy(c.rbuf, c.rbuf[c.r:c.w])
		c.r = 0
	}
	if n > len(c.rbuf) {
		b := make([]byte, max(n, min(2*len(c.rbuf), limit)))
		c.w = copy(b, c.rbuf[:c.w])
		c.rbuf = b
	}
}

func (c *conn) consume(n int) { c.r += n }

func readError(err error, have int) error {
	if err == io.EOF {
		if have == 0 {
			return errClosedBeforeReply
		}
		return fmt.Errorf("connection closed by the server mid-reply: %w", io.ErrUnexpectedEOF)
	}
	return fmt.Errorf("read reply: %w", err)
}
