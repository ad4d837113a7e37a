package lean

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/rpckit/rpckit/internal/sysconn"
	"google.golang.org/grpc/codes"
)

// A Conn is a connection to one target: one HTTP/2 connection at a time,
// dialled again when the server sends GOAWAY or the connection fails. It
// is safe for concurrent use; calls on it share the connection.
type Conn struct {
	target            string
	network, addr     string
	scheme, authority string
	opts              Options
	tlsConf           *tls.Config

	cur     atomic.Pointer[transport]
	mu      sync.Mutex
	dialing *dialAttempt
	all     map[*transport]struct{}
	closed  bool
}

type dialAttempt struct {
	done chan struct{}
	err  error
}

var errClosing = &Error{Code: codes.Canceled, Message: "the client connection is closing"}

// Dial connects to target: host:port (dns:/// and passthrough:/// are
// accepted), or unix:path for a Unix socket. It returns once the HTTP/2
// handshake is done, or an error naming the target and the cause within
// Options.ConnectTimeout.
func Dial(ctx context.Context, target string, opts Options) (*Conn, error) {
	c, err := newConn(target, opts)
	if err != nil {
		return nil, err
	}
	if _, err := c.transport(ctx, &deadline{}); err != nil {
		c.Close()
		var e *Error
		if errors.As(err, &e) && e.cause != nil {
			err = e.cause
		}
		return nil, fmt.Errorf("lean: cannot connect to %s: %w", target, err)
	}
	return c, nil
}

func newConn(target string, opts Options) (*Conn, error) {
	c := &Conn{target: target, opts: opts.withDefaults(), all: make(map[*transport]struct{})}
	var host string
	c.network, c.addr, host = parseTarget(target)
	if c.addr == "" {
		return nil, fmt.Errorf("lean: target %q: no address", target)
	}
	c.authority = c.opts.Authority
	if c.authority == "" {
		c.authority = host
	}
	c.scheme = "http"
	if !c.opts.Plaintext {
		c.scheme = "https"
		c.tlsConf = tlsConfig(c.opts.TLS, c.authority)
	}
	return c, nil
}

// parseTarget splits a target into how to dial it and its authority.
func parseTarget(target string) (network, addr, authority string) {
	for _, p := range []string{"unix://", "unix:"} {
		if rest, ok := strings.CutPrefix(target, p); ok {
			return "unix", rest, "localhost"
		}
	}
	for _, p := range []string{"dns:///", "passthrough:///"} {
		target = strings.TrimPrefix(target, p)
	}
	if _, _, err := net.SplitHostPort(target); err != nil && target != "" {
		target = net.JoinHostPort(strings.Trim(target, "[]"), "443")
	}
	return "tcp", target, target
}

func tlsConfig(base *tls.Config, authority string) *tls.Config {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if base != nil {
		cfg = base.Clone()
	}
	cfg.NextProtos = []string{"h2"}
	if cfg.ServerName == "" {
		cfg.ServerName = authority
		if h, _, err := net.SplitHostPort(authority); err == nil {
			cfg.ServerName = h
		}
	}
	return cfg
}

// Target returns the target dialled.
func (c *Conn) Target() string { return c.target }

// Close closes the connection; calls in flight end with CANCELED.
func (c *Conn) Close() error {
	c.mu.Lock()
	c.closed = true
	all := make([]*transport, 0, len(c.all))
	for t := range c.all {
		all = append(all, t)
	}
	c.mu.Unlock()
	for _, t := range all {
		t.mu.Lock()
		t.failLocked(errors.New("closed"), errClosing)
		t.mu.Unlock()
	}
	return nil
}

// transport returns the connection to make a call on, dialling when there
// is none that takes new streams (waiting no longer than dl).
func (c *Conn) transport(ctx context.Context, dl *deadline) (*transport, error) {
	if t := c.cur.Load(); t != nil && !t.draining.Load() {
		return t, nil
	}
	ctx, cancel := dl.bound(ctx)
	defer cancel()
	t, err := c.dialOrWait(ctx)
	if err != nil {
		return nil, err
	}
	if err := dl.tick(); err != nil {
		return nil, err
	}
	return t, nil
}

// dialOrWait returns the connection to make a call on, dialling or
// waiting for another call's dial.
func (c *Conn) dialOrWait(ctx context.Context) (*transport, error) {
	c.mu.Lock()
	for {
		if c.closed {
			c.mu.Unlock()
			return nil, errClosing
		}
		if t := c.cur.Load(); t != nil && !t.draining.Load() {
			c.mu.Unlock()
			return t, nil
		}
		if c.dialing == nil {
			return c.dialNew(ctx)
		}
		a := c.dialing
		c.mu.Unlock()
		if err := waitDial(ctx, a); err != nil {
			return nil, err
		}
		c.mu.Lock()
	}
}

// waitDial waits for another call's dial attempt a to end.
func waitDial(ctx context.Context, a *dialAttempt) error {
	select {
	case <-a.done:
	case <-ctx.Done():
		return ctxError(ctx.Err())
	}
	if a.err != nil {
		return connError(a.err)
	}
	return nil
}

// dialNew dials as the Conn's one dial attempt, which other calls wait
// for. It is called with c.mu held, and releases it.
func (c *Conn) dialNew(ctx context.Context) (*transport, error) {
	a := &dialAttempt{done: make(chan struct{})}
	c.dialing = a
	c.mu.Unlock()
	t, err := c.dial(ctx)
	closed := c.dialDone(a, t, err)
	if err != nil {
		return nil, connError(err)
	}
	if closed {
		c.Close()
		return nil, errClosing
	}
	return t, nil
}

// dialDone ends the dial attempt a with its outcome, making t the
// transport new calls use when err is nil, and reports whether the Conn
// was closed meanwhile.
func (c *Conn) dialDone(a *dialAttempt, t *transport, err error) (closed bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dialing, a.err = nil, err
	close(a.done)
	if err == nil {
		c.all[t] = struct{}{}
		c.cur.Store(t)
	}
	return c.closed
}

// dial makes a new HTTP/2 connection, bounded by ConnectTimeout and not by
// the cancellation of the call that asked for it (others may wait on it).
func (c *Conn) dial(ctx context.Context) (*transport, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.opts.ConnectTimeout)
	defer cancel()
	conn, err := c.connect(ctx)
	if err != nil {
		return nil, err
	}
	return c.startTransport(ctx, conn)
}

// connect opens the connection to the server, over TLS when the Conn
// uses it.
func (c *Conn) connect(ctx context.Context) (net.Conn, error) {
	raw, err := (&net.Dialer{}).DialContext(ctx, c.network, c.addr)
	if err != nil {
		return nil, err
	}
	raw = sysconn.Wrap(raw)
	if c.tlsConf == nil {
		return raw, nil
	}
	return c.tlsHandshake(ctx, raw)
}

// tlsHandshake runs the TLS handshake over raw, which must settle on h2
// (or on no protocol); raw is closed when it fails.
func (c *Conn) tlsHandshake(ctx context.Context, raw net.Conn) (net.Conn, error) {
	tc := tls.Client(raw, c.tlsConf)
	err := tc.HandshakeContext(ctx)
	if err == nil {
		err = negotiatedH2(tc.ConnectionState().NegotiatedProtocol)
	}
	if err != nil {
		raw.Close()
		return nil, fmt.Errorf("tls handshake: %w", err)
	}
	return tc, nil
}

// negotiatedH2 checks the protocol ALPN settled on: h2, or none.
func negotiatedH2(p string) error {
	if p != "h2" && p != "" {
		return fmt.Errorf("the server chose protocol %q, not h2", p)
	}
	return nil
}

// startTransport runs the HTTP/2 handshake over conn and starts the
// transport; conn is closed when the handshake fails.
func (c *Conn) startTransport(ctx context.Context, conn net.Conn) (*transport, error) {
	t := newTransport(conn, c)
	if err := t.handshake(ctx); err != nil {
		conn.Close()
		return nil, fmt.Errorf("http/2 handshake: %w", err)
	}
	t.start()
	return t, nil
}

// forget drops a transport that has closed.
func (c *Conn) forget(t *transport) {
	c.mu.Lock()
	delete(c.all, t)
	c.mu.Unlock()
	c.cur.CompareAndSwap(t, nil)
}
