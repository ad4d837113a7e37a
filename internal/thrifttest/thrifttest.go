// Package thrifttest serves BenchService (thrift/testdata/bench.thrift) for
// the tests of the Thrift side: the Apache Go library's server and client
// over every transport and protocol, the Apache Python library's server
// (testdata/bench_server.py), and the test binary itself as a server in
// another process. Tests alone import it.
//
// It imports the generated code, the Apache Thrift library,
// internal/thriftfixture, thrift/client and thrift/wire (the names of
// transports and protocols) and the standard library.
package thrifttest

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/rpckit/rpckit/internal/gen/thrift/rpckit/bench"
	"github.com/rpckit/rpckit/thrift/client"
	"github.com/rpckit/rpckit/thrift/wire"
)

// Setup is one transport x protocol combination, served and called. The
// zero Setup is framed binary.
type Setup struct {
	Transport   client.Transport
	Protocol    wire.Protocol
	NonStrict   bool
	Multiplexed string // the service's name when multiplexed
}

// Name is the setup as a test's name: framed/binary, header/compact/mux.
func (s Setup) Name() string {
	n := s.Transport.String() + "/" + s.Protocol.String()
	if s.NonStrict {
		n += "/nonstrict"
	}
	if s.Multiplexed != "" {
		n += "/mux"
	}
	return n
}

func config(s Setup) *thrift.TConfiguration {
	return &thrift.TConfiguration{TBinaryStrictRead: thrift.BoolPtr(!s.NonStrict), TBinaryStrictWrite: thrift.BoolPtr(!s.NonStrict)}
}

func protocolFactory(s Setup) thrift.TProtocolFactory {
	cfg := config(s)
	switch {
	case s.Transport == client.Header:
		return thrift.NewTHeaderProtocolFactoryConf(cfg)
	case s.Protocol == wire.Compact:
		return thrift.NewTCompactProtocolFactoryConf(cfg)
	}
	return thrift.NewTBinaryProtocolFactoryConf(cfg)
}

func transportFactory(s Setup) thrift.TTransportFactory {
	cfg := config(s)
	switch s.Transport {
	case client.Framed:
		return thrift.NewTFramedTransportFactoryConf(thrift.NewTTransportFactory(), cfg)
	case client.Header:
		return thrift.NewTHeaderTransportFactoryConf(nil, cfg)
	}
	return thrift.NewTBufferedTransportFactory(4096)
}

// Serve serves h with the Apache Go library's TSimpleServer on a free
// loopback port and returns its address; the server stops with the test.
func Serve(t testing.TB, s Setup, h *Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ServeOn(t, ln, s, h)
	return ln.Addr().String()
}

// ServeOn serves h on ln with the Apache Go library until the test ends.
func ServeOn(t testing.TB, ln net.Listener, s Setup, h *Handler) {
	t.Helper()
	srv, err := start(ln, s, h)
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

// start returns a listening TSimpleServer of h on ln.
func start(ln net.Listener, s Setup, h *Handler) (*thrift.TSimpleServer, error) {
	var proc thrift.TProcessor = bench.NewBenchServiceProcessor(h)
	if s.Multiplexed != "" {
		mux := thrift.NewTMultiplexedProcessor()
		mux.RegisterProcessor(s.Multiplexed, proc)
		proc = mux
	}
	sock := thrift.NewTServerSocketFromFactoryTimeout(func(net.Addr) (net.Listener, error) { return ln, nil }, ln.Addr(), 0)
	srv := thrift.NewTSimpleServer4(proc, sock, transportFactory(s), protocolFactory(s))
	srv.SetLogContext(context.Background())
	return srv, srv.Listen()
}

// Client returns the Apache Go library's client for s at addr, closed
// when the test ends.
func Client(t testing.TB, s Setup, addr string) thrift.TClient {
	t.Helper()
	cfg := config(s)
	cfg.ConnectTimeout, cfg.SocketTimeout = 5*time.Second, 10*time.Second
	trans := clientTransport(s, addr, cfg)
	if err := trans.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { trans.Close() })
	var prot thrift.TProtocol
	switch {
	case s.Transport == client.Header:
		prot = thrift.NewTHeaderProtocolConf(trans, cfg)
	case s.Protocol == wire.Compact:
		prot = thrift.NewTCompactProtocolConf(trans, cfg)
	default:
		prot = thrift.NewTBinaryProtocolConf(trans, cfg)
	}
	if s.Multiplexed != "" {
		prot = thrift.NewTMultiplexedProtocol(prot, s.Multiplexed)
	}
	return thrift.NewTStandardClient(prot, prot)
}

func clientTransport(s Setup, addr string, cfg *thrift.TConfiguration) thrift.TTransport {
	var trans thrift.TTransport = thrift.NewTSocketConf(addr, cfg)
	switch s.Transport {
	case client.Framed:
		trans = thrift.NewTFramedTransportConf(trans, cfg)
	case client.Buffered:
		trans = thrift.NewTBufferedTransport(trans, 4096)
	case client.Header:
		id := thrift.THeaderProtocolBinary
		if s.Protocol == wire.Compact {
			id = thrift.THeaderProtocolCompact
		}
		cfg.THeaderProtocolID = &id
		trans = thrift.NewTHeaderTransportConf(trans, cfg)
	}
	return trans
}
