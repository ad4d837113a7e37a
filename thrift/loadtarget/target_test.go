package loadtarget_test

import (
	"context"
	"errors"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/rpckit/rpckit/internal/gen/thrift/rpckit/bench"
	"github.com/rpckit/rpckit/internal/thrifttest"
	"github.com/rpckit/rpckit/load"
	"github.com/rpckit/rpckit/thrift/client"
	"github.com/rpckit/rpckit/thrift/idl"
	"github.com/rpckit/rpckit/thrift/loadtarget"
	"github.com/rpckit/rpckit/thrift/wire"
)

// TestMain quiets the Apache server's logs of the connections tests
// break, and serves instead when the test binary is a server in another
// process (thrifttest.ServeApart), so that allocation counts and CPU time
// see the client alone.
func TestMain(m *testing.M) { os.Exit(thrifttest.Main(m)) }

// serve serves BenchService, framed binary, on loopback until the test
// ends.
func serve(t *testing.T, h *thrifttest.Handler) string {
	t.Helper()
	return thrifttest.Serve(t, thrifttest.Setup{}, h)
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
	h := thrifttest.NewHandler()
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
	case ev := <-h.Events:
		if ev != "e" {
			t.Errorf("the server saw event %q", ev)
		}
	case <-time.After(10 * time.Second):
		t.Error("the oneway call never reached the server")
	}
}

// TestNewChecksTheServer: what would fail every call fails New, at once.
func TestNewChecksTheServer(t *testing.T) {
	addr := serve(t, thrifttest.NewHandler())
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
	addr := serve(t, thrifttest.NewHandler())
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
	addr := thrifttest.ServeApart(t, thrifttest.Setup{})
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
