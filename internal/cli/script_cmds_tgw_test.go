package cli_test

import (
	"context"
	"net"
	"os"
	"time"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/rogpeppe/go-internal/testscript"
	"github.com/rpckit/rpckit/internal/gen/thrift/rpckit/bench"
)

// The scripts' commands for the gateway in front of Thrift:
//
//	benchidl               copies thrift/testdata/bench.thrift into $WORK
//	benchthrift NAME [TRANSPORT [PROTOCOL]]
//	                       serves BenchService with the Apache Go library on
//	                       loopback (framed binary by default) until the script
//	                       ends, and sets NAME to its host:port
func init() {
	scriptCmds["benchidl"] = cmdBenchIDL
	scriptCmds["benchthrift"] = cmdBenchThrift
}

func cmdBenchIDL(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: benchidl")
	}
	b, err := os.ReadFile("../../thrift/testdata/bench.thrift")
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs("bench.thrift"), b, 0o644))
}

func cmdBenchThrift(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 3 {
		ts.Fatalf("usage: benchthrift NAME [TRANSPORT [PROTOCOL]]")
	}
	transport, protocol := "framed", "binary"
	if len(args) > 1 {
		transport = args[1]
	}
	if len(args) > 2 {
		protocol = args[2]
	}
	cfg := &thrift.TConfiguration{}
	var tf thrift.TTransportFactory = thrift.NewTFramedTransportFactoryConf(thrift.NewTTransportFactory(), cfg)
	if transport == "buffered" {
		tf = thrift.NewTBufferedTransportFactory(4096)
	}
	var pf thrift.TProtocolFactory = thrift.NewTBinaryProtocolFactoryConf(cfg)
	if protocol == "compact" {
		pf = thrift.NewTCompactProtocolFactoryConf(cfg)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	sock := thrift.NewTServerSocketFromFactoryTimeout(func(net.Addr) (net.Listener, error) { return ln, nil }, ln.Addr(), 0)
	srv := thrift.NewTSimpleServer4(bench.NewBenchServiceProcessor(gwBenchHandler{}), sock, tf, pf)
	srv.SetLogContext(context.Background())
	ts.Check(srv.Listen())
	done := make(chan struct{})
	go func() { defer close(done); srv.AcceptLoop() }()
	ts.Setenv(args[0], ln.Addr().String())
	// Stop waits for the server's connections to close: a gateway that a
	// failed script left running holds them, so the wait is bounded.
	ts.Defer(func() {
		go srv.Stop()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
		}
	})
}

// gwBenchHandler answers BenchService: echoes, and BenchError for a
// negative id or from Fail.
type gwBenchHandler struct{}

func (gwBenchHandler) Echo(_ context.Context, req *bench.Small) (*bench.Small, error) {
	return req, nil
}

func (gwBenchHandler) GetMedium(_ context.Context, id int64, title string) (*bench.Medium, error) {
	if id < 0 {
		return nil, &bench.BenchError{Code: int32(id), Message: title}
	}
	return &bench.Medium{Title: title, Total: id, Tags: []string{"a", "b"}}, nil
}

func (gwBenchHandler) PutMedium(_ context.Context, req *bench.Medium) (*bench.Medium, error) {
	return req, nil
}

func (gwBenchHandler) Trim(context.Context, *bench.Medium) (*bench.MediumPart, error) {
	return &bench.MediumPart{}, nil
}

func (gwBenchHandler) Grow(_ context.Context, seed *bench.Medium, pages int32) (*bench.Large, error) {
	return &bench.Large{Main: seed, Count: pages}, nil
}

func (gwBenchHandler) Notify(context.Context, string) error { return nil }

func (gwBenchHandler) Fail(_ context.Context, code int32, message string) error {
	return &bench.BenchError{Code: code, Message: message}
}
