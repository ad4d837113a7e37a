package leanhttp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"time"

	"github.com/rpckit/rpckit/internal/sysconn"
)

// Options set the request and the limits. The zero value is a GET with
// keep-alive and the default limits.
type Options struct {
	Method string   // default GET
	Header []Header // in order; Host overrides the URL's host
	Body   []byte

	// MaxBodySize bounds a response's body (default 4 MiB); MaxHeaderSize
	// bounds its status line and headers, and so the connection's buffer
	// (default 64 KiB).
	MaxBodySize   int
	MaxHeaderSize int

	// MaxIdle is how many idle connections the pool keeps (default: as
	// many as calls were in flight at once).
	MaxIdle int

	// DisableKeepAlive makes a new connection per call, closed after it
	// (the request says Connection: close).
	DisableKeepAlive bool
}

// ErrClosed is the error of a call on a closed Client.
var ErrClosed = errors.New("leanhttp: client closed")

// A Client sends its one request to its URL. Its methods are safe for
// concurrent use.
type Client struct {
	req     *request
	maxHead int
	maxBody int
	maxIdle int
	dialer  net.Dialer

	mu     sync.Mutex
	idle   []*conn // last in, first out
	open   map[*conn]struct{}
	closed bool
}

// New makes a Client for rawURL, a http:// URL.
func New(rawURL string, o Options) (*Client, error) {
	req, err := newRequest(rawURL, &o)
	if err != nil {
		return nil, err
	}
	c := &Client{req: req, maxHead: o.MaxHeaderSize, maxBody: o.MaxBodySize, maxIdle: o.MaxIdle,
		open: map[*conn]struct{}{}}
	if c.maxHead <= 0 {
		c.maxHead = 64 << 10
	}
	if c.maxBody <= 0 {
		c.maxBody = 4 << 20
	}
	return c, nil
}

// Do makes one call and returns the response's status, its body read and
// discarded.
func (c *Client) Do(ctx context.Context) (int, error) {
	status, _, err := c.do(ctx, nil, false)
	return status, err
}

// DoBody makes one call and returns the response's status, its body
// appended to dst.
func (c *Client) DoBody(ctx context.Context, dst []byte) (int, []byte, error) {
	return c.do(ctx, dst, true)
}

func (c *Client) do(ctx context.Context, dst []byte, keep bool) (int, []byte, error) {
	if err := ctx.Err(); err != nil {
		return 0, dst, fmt.Errorf("leanhttp: %w", err)
	}
	dl, _ := ctx.Deadline()
	cn, reused, err := c.get(ctx)
	if err != nil {
		return 0, dst, err
	}
	n := len(dst)
	resp, dst, err := cn.roundTrip(c.req, dl, dst, keep)
	if err != nil && reused && !cn.rd.got && c.req.idempotent && !timeout(err) && ctx.Err() == nil {
		// The server closed the idle connection as the request went out.
		c.drop(cn)
		if cn, err = c.dial(ctx); err != nil {
			return 0, dst[:n], err
		}
		resp, dst, err = cn.roundTrip(c.req, dl, dst[:n], keep)
	}
	if err != nil {
		c.drop(cn)
		return resp.status, dst, c.callError(ctx, err)
	}
	c.put(cn, resp.close || cn.rd.r != cn.rd.w)
	return resp.status, dst, nil
}

// callError says a timeout, or a call cut off by its context, with the
// context's error.
func (c *Client) callError(ctx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("%w (%w)", err, ctx.Err())
	case timeout(err):
		return fmt.Errorf("%w (%w)", err, context.DeadlineExceeded)
	}
	return err
}

func timeout(err error) bool { return errors.Is(err, os.ErrDeadlineExceeded) }

// get takes the connection used last, or dials one.
func (c *Client) get(ctx context.Context) (*conn, bool, error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, false, ErrClosed
	}
	if n := len(c.idle); n > 0 {
		cn := c.idle[n-1]
		c.idle[n-1] = nil
		c.idle = c.idle[:n-1]
		c.mu.Unlock()
		return cn, true, nil
	}
	c.mu.Unlock()
	cn, err := c.dial(ctx)
	return cn, false, err
}

func (c *Client) dial(ctx context.Context) (*conn, error) {
	nc, err := c.dialer.DialContext(ctx, "tcp", c.req.addr)
	if err != nil {
		return nil, fmt.Errorf("leanhttp: %w", err)
	}
	sc := sysconn.Wrap(nc)
	cn := &conn{nc: sc, rd: newReader(sc, c.maxHead, c.maxBody)}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		nc.Close()
		return nil, ErrClosed
	}
	c.open[cn] = struct{}{}
	return cn, nil
}

// put returns a connection to the pool after a call, or closes it.
func (c *Client) put(cn *conn, done bool) {
	c.mu.Lock()
	if done || c.req.close || c.closed || c.maxIdle > 0 && len(c.idle) >= c.maxIdle {
		c.mu.Unlock()
		c.drop(cn)
		return
	}
	c.idle = append(c.idle, cn)
	c.mu.Unlock()
}

// drop closes a connection taken from the pool.
func (c *Client) drop(cn *conn) {
	c.mu.Lock()
	delete(c.open, cn)
	c.mu.Unlock()
	cn.nc.Close()
}

// Close closes every connection, those of calls in flight too: their
// calls fail. Calls made after it fail with ErrClosed.
func (c *Client) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	for cn := range c.open {
		cn.nc.Close()
	}
	clear(c.open)
	c.idle = nil
}

// A conn is one connection, carrying one call at a time.
type conn struct {
	nc net.Conn
	rd *reader
	dl time.Time // the deadline set on nc
}

// roundTrip writes the request and reads the response.
func (cn *conn) roundTrip(req *request, dl time.Time, dst []byte, keep bool) (response, []byte, error) {
	if !dl.Equal(cn.dl) {
		if err := cn.nc.SetDeadline(dl); err != nil {
			return response{}, dst, fmt.Errorf("leanhttp: %w", err)
		}
		cn.dl = dl
	}
	cn.rd.reset()
	if _, err := cn.nc.Write(req.bytes); err != nil {
		return response{}, dst, fmt.Errorf("leanhttp: writing the request: %w", err)
	}
	return cn.rd.readResponse(req.head, dst, keep)
}
