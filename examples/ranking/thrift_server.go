package ranking

import (
	"context"
	_ "embed"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/apache/thrift/lib/go/thrift"
	rt "github.com/rpckit/rpckit/examples/ranking/gen/rankingthrift"
)

//go:embed thrift/ranking.thrift
var thriftIDL string

// ThriftIDL returns the Thrift IDL of the service's Thrift side,
// thrift/ranking.thrift, for tools that call it.
func ThriftIDL() string { return thriftIDL }

// ThriftOptions configures the service's Thrift server. The zero value
// serves the binary protocol on the framed transport and drains for at
// most 5 seconds.
type ThriftOptions struct {
	// Transport is "framed" (the default), "buffered" (unframed) or
	// "header" (THeader, which also answers framed and unframed binary and
	// compact calls, each in its own protocol).
	Transport string
	// Protocol is "binary" (the default) or "compact"; the header
	// transport ignores it.
	Protocol string
	// DrainTimeout bounds how long calls in flight may run once the
	// server is told to stop. Default 5s.
	DrainTimeout time.Duration
}

// ThriftServer serves the ranking service's Thrift side
// (thrift/ranking.thrift) with Apache Thrift's Go library, on the same
// model as the gRPC service.
type ThriftServer struct {
	h     *thriftHandler
	trans thrift.TTransportFactory
	proto thrift.TProtocolFactory
	drain time.Duration
}

// ThriftServer returns a Thrift server of s, or an error naming a
// transport or protocol it does not know.
func (s *Service) ThriftServer(opts ThriftOptions) (*ThriftServer, error) {
	cfg := &thrift.TConfiguration{}
	ts := &ThriftServer{h: &thriftHandler{s: s}, drain: opts.DrainTimeout}
	if ts.drain <= 0 {
		ts.drain = 5 * time.Second
	}
	switch opts.Protocol {
	case "", "binary":
		ts.proto = thrift.NewTBinaryProtocolFactoryConf(cfg)
	case "compact":
		ts.proto = thrift.NewTCompactProtocolFactoryConf(cfg)
	default:
		return nil, fmt.Errorf("ranking: unknown Thrift protocol %q: want binary or compact", opts.Protocol)
	}
	switch opts.Transport {
	case "", "framed":
		ts.trans = thrift.NewTFramedTransportFactoryConf(thrift.NewTTransportFactory(), cfg)
	case "buffered":
		ts.trans = thrift.NewTBufferedTransportFactory(64 << 10)
	case "header":
		ts.trans = thrift.NewTHeaderTransportFactoryConf(nil, cfg)
		ts.proto = thrift.NewTHeaderProtocolFactoryConf(cfg)
	default:
		return nil, fmt.Errorf("ranking: unknown Thrift transport %q: want framed, buffered or header", opts.Transport)
	}
	return ts, nil
}

// Serve serves on ln until ctx is done, then stops accepting, lets the
// calls in flight finish for at most DrainTimeout, closes every
// connection and returns nil. It closes ln.
func (ts *ThriftServer) Serve(ctx context.Context, ln net.Listener) error {
	tl := &trackedListener{Listener: ln, conns: map[net.Conn]struct{}{}}
	sock := thrift.NewTServerSocketFromFactoryTimeout(func(net.Addr) (net.Listener, error) { return tl, nil }, ln.Addr(), 0)
	srv := thrift.NewTSimpleServer4(rt.NewRankingServiceProcessor(ts.h), sock, ts.trans, ts.proto)
	srv.SetLogContext(context.Background())
	if err := srv.Listen(); err != nil {
		ln.Close()
		return fmt.Errorf("ranking: thrift listen: %w", err)
	}
	accepted := make(chan error, 1)
	go func() { accepted <- srv.AcceptLoop() }()
	select {
	case <-ctx.Done():
	case err := <-accepted:
		tl.closeAll()
		srv.Stop()
		return fmt.Errorf("ranking: thrift accept: %w", err)
	}
	stopped := make(chan struct{})
	go func() { srv.Stop(); close(stopped) }()
	ts.waitIdle()
	tl.closeAll()
	<-stopped
	<-accepted
	return nil
}

// Start listens on addr (such as "127.0.0.1:0") and serves there in the
// background. It returns the address it listens on, and stop, which ends
// Serve as a done context does and returns Serve's error.
func (ts *ThriftServer) Start(addr string) (net.Addr, func() error, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, fmt.Errorf("ranking: thrift: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ts.Serve(ctx, ln) }()
	return ln.Addr(), func() error { cancel(); return <-done }, nil
}

// InFlight returns the number of calls being served.
func (ts *ThriftServer) InFlight() int { return int(ts.h.inflight.Load()) }

// waitIdle waits until no call is in flight, for at most the drain
// timeout.
func (ts *ThriftServer) waitIdle() {
	deadline := time.Now().Add(ts.drain)
	for ts.h.inflight.Load() > 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
}

// trackedListener keeps the connections it accepted until they close, so
// that a stop can close the idle ones the Apache server would wait for.
type trackedListener struct {
	net.Listener
	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	closed bool
}

func (l *trackedListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		c.Close()
		return nil, net.ErrClosed
	}
	tc := &trackedConn{Conn: c, l: l}
	l.conns[tc] = struct{}{}
	return tc, nil
}

// closeAll closes every connection and refuses those accepted later.
func (l *trackedListener) closeAll() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	for c := range l.conns {
		c.(*trackedConn).Conn.Close()
	}
	clear(l.conns)
}

type trackedConn struct {
	net.Conn
	l    *trackedListener
	once sync.Once
}

func (c *trackedConn) Close() error {
	c.once.Do(func() {
		c.l.mu.Lock()
		delete(c.l.conns, c)
		c.l.mu.Unlock()
	})
	return c.Conn.Close()
}
