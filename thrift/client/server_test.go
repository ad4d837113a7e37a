package client_test

import (
	"context"
	"log/slog"
	"net"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/rpckit/rpckit/internal/gen/thrift/rpckit/bench"
	"github.com/rpckit/rpckit/thrift/client"
	"github.com/rpckit/rpckit/thrift/wire"
)

// TestMain quiets the Apache server's logging of the connections the
// error tests break on purpose.
func TestMain(m *testing.M) {
	slog.SetDefault(slog.New(slog.DiscardHandler))
	if v := os.Getenv(serveEnv); v != "" {
		os.Exit(serveChild(v))
	}
	os.Exit(m.Run())
}

// setup is one transport x protocol combination, served and called.
type setup struct {
	transport   client.Transport
	protocol    wire.Protocol
	nonStrict   bool
	multiplexed string
}

func (s setup) name() string {
	n := s.transport.String() + "/" + s.protocol.String()
	if s.nonStrict {
		n += "/nonstrict"
	}
	if s.multiplexed != "" {
		n += "/mux"
	}
	return n
}

// handler implements BenchService for the tests: echoes, derived values,
// a declared exception and oneway events on a channel.
type handler struct {
	events  chan string
	block   chan struct{} // GetMedium of title "block" waits for it to close
	mu      sync.Mutex
	headers []string // the request-id THeader of each call
	busy    int      // GetMedium calls that reached the block
}

func newHandler() *handler {
	return &handler{events: make(chan string, 16), block: make(chan struct{})}
}

func (h *handler) record(ctx context.Context) {
	if id, ok := thrift.GetHeader(ctx, "request-id"); ok {
		h.mu.Lock()
		h.headers = append(h.headers, id)
		h.mu.Unlock()
	}
}

func (h *handler) Echo(ctx context.Context, req *bench.Small) (*bench.Small, error) {
	h.record(ctx)
	return req, nil
}

func (h *handler) GetMedium(ctx context.Context, id int64, title string) (*bench.Medium, error) {
	h.record(ctx)
	if title == "block" {
		h.mu.Lock()
		h.busy++
		h.mu.Unlock()
		<-h.block
	}
	if id < 0 {
		return nil, &bench.BenchError{Code: int32(id), Message: title}
	}
	return &bench.Medium{Title: title, Total: id, Tags: []string{"a", "b"}}, nil
}

func (h *handler) PutMedium(_ context.Context, req *bench.Medium) (*bench.Medium, error) {
	return req, nil
}

func (h *handler) Trim(_ context.Context, req *bench.Medium) (*bench.MediumPart, error) {
	part := func(s *bench.Small) *bench.SmallPart {
		return &bench.SmallPart{Tiny: s.Tiny, Score: s.Score, Blob: s.Blob}
	}
	out := &bench.MediumPart{ByName: map[string]*bench.SmallPart{}}
	for _, s := range req.Items {
		out.Items = append(out.Items, part(s))
	}
	for k, s := range req.ByName {
		out.ByName[k] = part(s)
	}
	if req.Head != nil {
		out.Head = part(req.Head)
	}
	return out, nil
}

func (h *handler) Grow(_ context.Context, seed *bench.Medium, pages int32) (*bench.Large, error) {
	l := &bench.Large{Main: seed, Head: seed.Head, Count: pages, Note: "grown"}
	for range pages {
		l.Pages = append(l.Pages, seed)
	}
	return l, nil
}

func (h *handler) Notify(_ context.Context, event string) error {
	h.events <- event
	return nil
}

func (h *handler) Fail(_ context.Context, code int32, message string) error {
	return &bench.BenchError{Code: code, Message: message}
}

func config(s setup) *thrift.TConfiguration {
	return &thrift.TConfiguration{TBinaryStrictRead: thrift.BoolPtr(!s.nonStrict), TBinaryStrictWrite: thrift.BoolPtr(!s.nonStrict)}
}

func protocolFactory(s setup) thrift.TProtocolFactory {
	cfg := config(s)
	switch {
	case s.transport == client.Header:
		return thrift.NewTHeaderProtocolFactoryConf(cfg)
	case s.protocol == wire.Compact:
		return thrift.NewTCompactProtocolFactoryConf(cfg)
	}
	return thrift.NewTBinaryProtocolFactoryConf(cfg)
}

func transportFactory(s setup) thrift.TTransportFactory {
	cfg := config(s)
	switch s.transport {
	case client.Framed:
		return thrift.NewTFramedTransportFactoryConf(thrift.NewTTransportFactory(), cfg)
	case client.Header:
		return thrift.NewTHeaderTransportFactoryConf(nil, cfg)
	}
	return thrift.NewTBufferedTransportFactory(4096)
}

// serveApache serves h with the Apache Go library's TSimpleServer on a
// free loopback port and returns its address; the server stops with the
// test.
func serveApache(t testing.TB, s setup, h *handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	serveOn(t, ln, s, h)
	return ln.Addr().String()
}

// serveOn serves h on ln with the Apache Go library until the test ends.
func serveOn(t testing.TB, ln net.Listener, s setup, h *handler) {
	t.Helper()
	srv, err := startApache(ln, s, h)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); srv.AcceptLoop() }()
	t.Cleanup(func() {
		srv.Stop()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("server did not stop")
		}
	})
}

// startApache returns a listening TSimpleServer of h on ln.
func startApache(ln net.Listener, s setup, h *handler) (*thrift.TSimpleServer, error) {
	var proc thrift.TProcessor = bench.NewBenchServiceProcessor(h)
	if s.multiplexed != "" {
		mux := thrift.NewTMultiplexedProcessor()
		mux.RegisterProcessor(s.multiplexed, proc)
		proc = mux
	}
	sock := thrift.NewTServerSocketFromFactoryTimeout(func(net.Addr) (net.Listener, error) { return ln, nil }, ln.Addr(), 0)
	srv := thrift.NewTSimpleServer4(proc, sock, transportFactory(s), protocolFactory(s))
	srv.SetLogContext(context.Background())
	return srv, srv.Listen()
}

// apacheClient returns the Apache Go library's client for s at addr.
func apacheClient(t testing.TB, s setup, addr string) thrift.TClient {
	t.Helper()
	cfg := config(s)
	cfg.ConnectTimeout, cfg.SocketTimeout = 5*time.Second, 10*time.Second
	var trans thrift.TTransport = thrift.NewTSocketConf(addr, cfg)
	switch s.transport {
	case client.Framed:
		trans = thrift.NewTFramedTransportConf(trans, cfg)
	case client.Buffered:
		trans = thrift.NewTBufferedTransport(trans, 4096)
	case client.Header:
		id := thrift.THeaderProtocolBinary
		if s.protocol == wire.Compact {
			id = thrift.THeaderProtocolCompact
		}
		cfg.THeaderProtocolID = &id
		trans = thrift.NewTHeaderTransportConf(trans, cfg)
	}
	if err := trans.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { trans.Close() })
	var prot thrift.TProtocol
	switch {
	case s.transport == client.Header:
		prot = thrift.NewTHeaderProtocolConf(trans, cfg)
	case s.protocol == wire.Compact:
		prot = thrift.NewTCompactProtocolConf(trans, cfg)
	default:
		prot = thrift.NewTBinaryProtocolConf(trans, cfg)
	}
	if s.multiplexed != "" {
		prot = thrift.NewTMultiplexedProtocol(prot, s.multiplexed)
	}
	return thrift.NewTStandardClient(prot, prot)
}

func newClient(t testing.TB, s setup, addr string, mod func(*client.Options)) *client.Client {
	t.Helper()
	opts := client.Options{Addr: addr, Transport: s.transport, Protocol: s.protocol,
		NonStrict: s.nonStrict, Multiplexed: s.multiplexed, Timeout: 10 * time.Second}
	if mod != nil {
		mod(&opts)
	}
	c, err := client.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}
