package client

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/rpckit/rpckit/thrift/wire"
)

// Client calls the methods of one Thrift service over a pool of
// connections. It is safe for concurrent use.
type Client struct {
	opts Options
	pool *pool
	seq  atomic.Int32
}

// New returns a client for opts; it connects on the first call.
func New(opts Options) (*Client, error) {
	switch {
	case opts.Addr == "" || opts.Addr == "unix:":
		return nil, errors.New("thrift/client: no address (host:port or unix:path)")
	case opts.Transport > Header:
		return nil, fmt.Errorf("thrift/client: unknown transport %s", opts.Transport)
	case opts.Protocol > wire.Compact:
		return nil, fmt.Errorf("thrift/client: unknown protocol %s", opts.Protocol)
	case strings.Contains(opts.Multiplexed, ":"):
		return nil, fmt.Errorf("thrift/client: multiplexed service name %q holds a colon", opts.Multiplexed)
	}
	opts = opts.withDefaults()
	return &Client{opts: opts, pool: newPool(opts.MaxConns)}, nil
}

// Call calls method with args, the encoded arguments struct (its fields
// and Stop) in the client's protocol, and appends the reply's result
// struct to out. A TApplicationException reply is an *ApplicationError;
// a declared exception is a field of the result (see [ResultField]).
func (c *Client) Call(ctx context.Context, method string, args, out []byte) ([]byte, error) {
	return c.do(ctx, method, wire.Call, args, out)
}

// Oneway sends a oneway call of method with args; no reply comes back.
func (c *Client) Oneway(ctx context.Context, method string, args []byte) error {
	_, err := c.do(ctx, method, wire.Oneway, args, nil)
	return err
}

// Close closes the client's connections; calls after it fail with
// ErrClosed.
func (c *Client) Close() error {
	c.pool.close()
	return nil
}

func (c *Client) do(ctx context.Context, method string, t wire.MessageType, args, out []byte) ([]byte, error) {
	cn, err := c.pool.get(ctx, &c.opts)
	if err != nil {
		return nil, fmt.Errorf("thrift/client: %s: %w", method, err)
	}
	reply, keep, err := c.roundTrip(ctx, cn, method, t, args, out)
	c.pool.put(cn, keep)
	if err != nil {
		return nil, fmt.Errorf("thrift/client: %s: %w", method, c.cause(ctx, err))
	}
	return reply, nil
}

// cause names the context's end or the call timeout behind an I/O
// timeout; the connection's deadline may fire before the context's timer.
func (c *Client) cause(ctx context.Context, err error) error {
	if _, ok := err.(*ApplicationError); ok {
		return err
	}
	if ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
		return fmt.Errorf("%w (%w)", context.Cause(ctx), err)
	}
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		return err
	}
	if _, ok := ctx.Deadline(); ok {
		return fmt.Errorf("%w (%w)", context.DeadlineExceeded, err)
	}
	return fmt.Errorf("call timed out after %v: %w", c.opts.Timeout, err)
}

// roundTrip sends one call and reads its reply. keep reports whether the
// connection may serve another call.
func (c *Client) roundTrip(ctx context.Context, cn *conn, method string, t wire.MessageType, args, out []byte) (reply []byte, keep bool, err error) {
	if err := cn.setDeadline(c.deadline(ctx)); err != nil {
		return nil, false, err
	}
	if d := ctx.Done(); d != nil && cn.watch(d) {
		defer func() {
			if cn.unwatch() {
				keep = false
			}
		}()
	} else if d != nil {
		stop := context.AfterFunc(ctx, func() { cn.nc.SetDeadline(time.Unix(1, 0)) })
		defer func() {
			if !stop() {
				keep = false // the deadline was cut short
			}
		}()
	}
	seq := c.seq.Add(1)
	if err := c.send(ctx, cn, method, t, seq, args); err != nil {
		return nil, false, err
	}
	if t == wire.Oneway {
		return nil, true, nil
	}
	return c.receive(cn, method, seq, out)
}

func (c *Client) deadline(ctx context.Context) time.Time {
	if d, ok := ctx.Deadline(); ok {
		return d
	}
	if c.opts.Timeout > 0 {
		return time.Now().Add(c.opts.Timeout)
	}
	return time.Time{}
}

// send frames the call as the transport wants and writes it.
func (c *Client) send(ctx context.Context, cn *conn, method string, t wire.MessageType, seq int32, args []byte) error {
	b, err := c.appendCall(ctx, cn.wbuf[:0], method, t, seq, args)
	cn.wbuf = b
	if err != nil {
		return err
	}
	if _, err := cn.nc.Write(b); err != nil {
		return fmt.Errorf("write call: %w", err)
	}
	return nil
}

// appendCall appends the call, framed as the transport wants.
func (c *Client) appendCall(ctx context.Context, b []byte, method string, t wire.MessageType, seq int32, args []byte) ([]byte, error) {
	start := len(b)
	if c.opts.Transport != Buffered {
		b = append(b, 0, 0, 0, 0)
	}
	if c.opts.Transport == Header {
		hs, _ := ctx.Value(headerKey{}).(*ctxHeader)
		var err error
		if b, err = appendTHeader(b, &c.opts, seq, hs); err != nil {
			return b[:start], err
		}
	}
	b = appendMessage(b, &c.opts, method, t, seq, args)
	if c.opts.Transport != Buffered {
		binary.BigEndian.PutUint32(b[start:], uint32(len(b)-start-4))
	}
	return b, nil
}

// receive reads the reply to call seq and appends its result struct to
// out.
func (c *Client) receive(cn *conn, method string, seq int32, out []byte) ([]byte, bool, error) {
	msg, err := c.readMessage(cn)
	if err != nil {
		return nil, false, err
	}
	return c.parseReply(msg, method, seq, out)
}

// parseReply checks the reply message msg to call seq of method and
// appends its result struct to out. keep reports whether the connection
// may serve another call.
func (c *Client) parseReply(msg []byte, method string, seq int32, out []byte) ([]byte, bool, error) {
	p := c.opts.Protocol
	m, err := p.ConsumeMessageHeader(msg, 0)
	switch {
	case err != nil:
		return nil, false, fmt.Errorf("reply's message header: %w", err)
	case m.SeqID != seq:
		return nil, false, fmt.Errorf("reply's sequence id %d is not the call's %d", m.SeqID, seq)
	case !nameMatches(m.Name(msg), c.opts.Multiplexed, method):
		return nil, false, fmt.Errorf("reply names method %q", m.Name(msg))
	case m.Type == wire.Exception:
		ae, err := decodeApplicationError(p, msg, m.End)
		if err != nil {
			return nil, false, fmt.Errorf("application exception: %w", err)
		}
		return nil, true, ae
	case m.Type != wire.Reply:
		return nil, false, fmt.Errorf("reply of message type %d", m.Type)
	}
	return append(out, msg[m.End:]...), true, nil
}

// readMessage reads one reply message and returns its bytes, valid until
// the next read on cn.
func (c *Client) readMessage(cn *conn) ([]byte, error) {
	if c.opts.Transport == Buffered {
		return readUnframed(cn, c.opts.Protocol, c.opts.MaxFrameSize)
	}
	frame, err := readFrame(cn, c.opts.MaxFrameSize)
	if err != nil || c.opts.Transport != Header {
		return frame, err
	}
	off, err := parseTHeader(frame, c.opts.Protocol)
	if err != nil {
		return nil, err
	}
	return frame[off:], nil
}

// readFrame reads a frame: a 4-byte big-endian length and that many bytes.
func readFrame(cn *conn, limit int) ([]byte, error) {
	if err := cn.fill(4, limit); err != nil {
		return nil, err
	}
	n := int64(binary.BigEndian.Uint32(cn.buffered()))
	switch {
	case n == 0:
		return nil, errors.New("empty reply frame")
	case n > int64(limit):
		return nil, fmt.Errorf("%w: frame of %d bytes, limit %d", ErrFrameTooLarge, n, limit)
	}
	if err := cn.fill(4+int(n), 4+limit); err != nil {
		return nil, err
	}
	frame := cn.buffered()[4 : 4+n]
	cn.consume(4 + int(n))
	return frame, nil
}

// readUnframed reads one self-delimiting message: it skips the header
// and the struct after it, reading more while they run past the bytes at
// hand, up to limit bytes.
func readUnframed(cn *conn, p wire.Protocol, limit int) ([]byte, error) {
	for {
		b := cn.buffered()
		if len(b) == 0 { // nothing to scan: read, without making a scan error
			if err := cn.readMore(limit); err != nil {
				return nil, err
			}
			continue
		}
		end, err := messageEnd(p, b)
		if err == nil {
			cn.consume(end)
			return b[:end], nil
		}
		if !incomplete(err) {
			return nil, fmt.Errorf("reply: %w", err)
		}
		if err := cn.readMore(limit); err != nil {
			if errors.Is(err, ErrFrameTooLarge) {
				return nil, fmt.Errorf("%w: reply over %d bytes", ErrFrameTooLarge, limit)
			}
			return nil, err
		}
	}
}

func messageEnd(p wire.Protocol, b []byte) (int, error) {
	m, err := p.ConsumeMessageHeader(b, 0)
	if err != nil {
		return 0, err
	}
	return p.Skip(b, m.End, wire.Struct)
}

// incomplete reports whether a scan failed only for want of bytes.
func incomplete(err error) bool {
	we, ok := err.(*wire.Error)
	return ok && (we.Code == wire.CodeTruncated || we.Code == wire.CodeLength)
}
