package loadtarget_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/rpckit/rpckit/internal/gen/thrift/rpckit/bench"
	"github.com/rpckit/rpckit/load"
	"github.com/rpckit/rpckit/thrift/client"
	"github.com/rpckit/rpckit/thrift/idl"
	"github.com/rpckit/rpckit/thrift/loadtarget"
	"github.com/rpckit/rpckit/thrift/wire"
)

func TestMain(m *testing.M) {
	slog.SetDefault(slog.New(slog.DiscardHandler)) // the server's logs of broken connections
	if os.Getenv(serveEnv) != "" {
		os.Exit(serveChild())
	}
	os.Exit(m.Run())
}

// serveEnv makes the test binary a BenchService server: it prints its
// address and serves until its stdin closes, so that allocation counts
// see the client alone.
const serveEnv = "RPCKIT_THRIFT_LOADTARGET_TEST_SERVE"

func serveChild() int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	srv, err := startServer(ln, &handler{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	go srv.AcceptLoop()
	fmt.Println(ln.Addr())
	io.Copy(io.Discard, os.Stdin)
	srv.Stop()
	return 0
}

// serveApart starts the test binary as a server in another process and
// returns its address; the process ends with the test.
func serveApart(t *testing.T) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), serveEnv+"=1")
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("server process: %v", err)
	}
	return strings.TrimSpace(line)
}

// handler is BenchService: echoes, a declared exception, oneway events.
type handler struct{ events chan string }

func (h *handler) Echo(_ context.Context, req *bench.Small) (*bench.Small, error) { return req, nil }
func (h *handler) GetMedium(_ context.Context, id int64, title string) (*bench.Medium, error) {
	return &bench.Medium{Title: title, Total: id}, nil
}
func (h *handler) PutMedium(_ context.Context, req *bench.Medium) (*bench.Medium, error) {
	return req, nil
}
func (h *handler) Trim(context.Context, *bench.Medium) (*bench.MediumPart, error) {
	return &bench.MediumPart{}, nil
}
func (h *handler) Grow(context.Context, *bench.Medium, int32) (*bench.Large, error) {
	return &bench.Large{}, nil
}
func (h *handler) Notify(_ context.Context, event string) error {
	select {
	case h.events <- event:
	default:
	}
	return nil
}
func (h *handler) Fail(_ context.Context, code int32, message string) error {
	return &bench.BenchError{Code: code, Message: message}
}

// serve serves BenchService, framed binary, on loopback until the test
// ends.
func serve(t *testing.T, h *handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := startServer(ln, h)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); srv.AcceptLoop() }()
	t.Cleanup(func() { srv.Stop(); <-done })
	return ln.Addr().String()
}

// startServer returns a listening TSimpleServer of h on ln.
func startServer(ln net.Listener, h *handler) (*thrift.TSimpleServer, error) {
	sock := thrift.NewTServerSocketFromFactoryTimeout(func(net.Addr) (net.Listener, error) { return ln, nil }, ln.Addr(), 0)
	cfg := &thrift.TConfiguration{}
	srv := thrift.NewTSimpleServer4(bench.NewBenchServiceProcessor(h), sock,
		thrift.NewTFramedTransportFactoryConf(thrift.NewTTransportFactory(), cfg), thrift.NewTBinaryProtocolFactoryConf(cfg))
	srv.SetLogContext(context.Background())
	return srv, srv.Listen()
}

func function(t *testing.T, name string) *idl.Function {
	t.Helper()
	f, err := idl.ParseFile("bench.thrift", idl.Options{FS: os.DirFS("../testdata")})
	if err != nil {
		t.Fatal(err)
	}
	fn := f.Services[0].Function(name)
	if fn == nil {
		t.Fatalf("no function %s", name)
	}
	return fn
}

func encode(t *testing.T, args thrift.TStruct) []byte {
	t.Helper()
	b, err := thrift.NewTSerializer().Write(context.Background(), args)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func newTarget(t *testing.T, o loadtarget.Options) *loadtarget.Target {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	lt, err := loadtarget.New(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(lt.Close)
	return lt
}

func TestCallOutcomes(t *testing.T) {
	h := &handler{events: make(chan string, 1)}
	addr := serve(t, h)
	ctx := context.Background()
	echo := newTarget(t, loadtarget.Options{Client: client.Options{Addr: addr}, Function: function(t, "Echo"),
		Args: encode(t, &bench.BenchServiceEchoArgs{Req: &bench.Small{Name: "x"}})})
	if err := echo.Call(ctx); err != nil {
		t.Errorf("Echo: %v", err)
	}
	fail := newTarget(t, loadtarget.Options{Client: client.Options{Addr: addr}, Function: function(t, "Fail"),
		Args: encode(t, &bench.BenchServiceFailArgs{Code: 3, Message: "no"})})
	err := fail.Call(ctx)
	var exc *loadtarget.ExceptionError
	if !errors.As(err, &exc) || exc.Name != "BenchError" || exc.Field != 1 || loadtarget.Code(err) != "BenchError" {
		t.Errorf("Fail: %v (code %q), want exception BenchError in field 1", err, loadtarget.Code(err))
	}
	notify := newTarget(t, loadtarget.Options{Client: client.Options{Addr: addr}, Function: function(t, "Notify"),
		Args: encode(t, &bench.BenchServiceNotifyArgs{Event: "e"})})
	if err := notify.Call(ctx); err != nil {
		t.Errorf("Notify: %v", err)
	}
	select {
	case ev := <-h.events:
		if ev != "e" {
			t.Errorf("the server saw event %q", ev)
		}
	case <-time.After(10 * time.Second):
		t.Error("the oneway call never reached the server")
	}
}

// TestNewChecksTheServer: what would fail every call fails New, at once.
func TestNewChecksTheServer(t *testing.T) {
	addr := serve(t, &handler{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := ln.Addr().String()
	ln.Close()
	unknown := *function(t, "Echo")
	unknown.Name = "Nope"
	for _, c := range []struct {
		name string
		o    loadtarget.Options
		want string
	}{
		{"down", loadtarget.Options{Client: client.Options{Addr: down}, Function: function(t, "Echo")}, "connection refused"},
		{"unknown method", loadtarget.Options{Client: client.Options{Addr: addr}, Function: &unknown}, "the server does not know Nope"},
		{"wrong protocol", loadtarget.Options{Client: client.Options{Addr: addr, Protocol: wire.Compact}, Function: function(t, "Echo")}, "same transport and protocol"},
		{"wrong transport", loadtarget.Options{Client: client.Options{Addr: addr, Transport: client.Buffered}, Function: function(t, "Echo")}, "the first call failed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			lt, err := loadtarget.New(ctx, c.o)
			if err == nil {
				lt.Close()
				t.Fatal("New succeeded")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("New: %v, want %q in it", err, c.want)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("New took %v to fail", d)
			}
		})
	}
}

// TestRun: a load run over the target counts successes and declared
// exceptions by name, over a pool smaller than the concurrency.
func TestRun(t *testing.T) {
	addr := serve(t, &handler{})
	for _, c := range []struct {
		fn   string
		args thrift.TStruct
		code string
	}{
		{"Echo", &bench.BenchServiceEchoArgs{Req: &bench.Small{Name: "x"}}, "OK"},
		{"Fail", &bench.BenchServiceFailArgs{Code: 1}, "BenchError"},
	} {
		lt := newTarget(t, loadtarget.Options{Client: client.Options{Addr: addr, MaxConns: 2, Timeout: 5 * time.Second},
			Function: function(t, c.fn), Args: encode(t, c.args)})
		opts := load.Options{Concurrency: 4, Count: 200, Timeout: time.Second}
		lt.Apply(&opts)
		if opts.Timeout != 0 || opts.Drain != min(load.DefaultDrain, 5*time.Second) {
			t.Errorf("Apply left timeout %v, drain %v", opts.Timeout, opts.Drain)
		}
		res, err := load.Run(context.Background(), opts, lt.Call)
		if err != nil {
			t.Fatal(err)
		}
		if res.Calls < 200 || res.Codes[c.code] != res.Calls {
			t.Errorf("%s: %d calls, codes %v; want all %s", c.fn, res.Calls, res.Codes, c.code)
		}
	}
}

// TestCallAllocs: a call on a warm connection allocates nothing.
func TestCallAllocs(t *testing.T) {
	addr := serveApart(t)
	lt := newTarget(t, loadtarget.Options{Client: client.Options{Addr: addr}, Function: function(t, "Echo"),
		Args: encode(t, &bench.BenchServiceEchoArgs{Req: &bench.Small{Name: "x", Blob: make([]byte, 100)}})})
	ctx := context.Background()
	if n := testing.AllocsPerRun(200, func() {
		if err := lt.Call(ctx); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("%v allocations per call, want 0", n)
	}
}
