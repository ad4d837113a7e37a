package client_test

import (
	"context"
	"errors"
	"net"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rpckit/rpckit/internal/gen/thrift/rpckit/bench"
	"github.com/rpckit/rpckit/internal/thriftfixture"
	"github.com/rpckit/rpckit/internal/thrifttest"
	"github.com/rpckit/rpckit/thrift/client"
	"github.com/rpckit/rpckit/thrift/wire"
)

// countingListener counts the connections it accepted.
type countingListener struct {
	net.Listener
	n atomic.Int32
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.n.Add(1)
	}
	return c, err
}

// TestPoolCap: many concurrent calls share at most MaxConns connections.
func TestPoolCap(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cl := &countingListener{Listener: ln}
	thrifttest.ServeOn(t, cl, thrifttest.Setup{}, thrifttest.NewHandler())
	c := newClient(t, thrifttest.Setup{}, ln.Addr().String(), func(o *client.Options) { o.MaxConns = 3 })
	args := echoArgs(wire.Binary)
	var wg sync.WaitGroup
	var failed atomic.Int32
	for range 16 {
		wg.Go(func() {
			var out []byte
			for range 50 {
				reply, err := c.Call(context.Background(), "Echo", args, out[:0])
				if err != nil {
					failed.Add(1)
					return
				}
				out = reply
			}
		})
	}
	wg.Wait()
	if failed.Load() != 0 {
		t.Fatalf("%d goroutines saw a failed call", failed.Load())
	}
	if n := cl.n.Load(); n < 1 || n > 3 {
		t.Errorf("server accepted %d connections, want 1 to 3", n)
	}
}

// TestPoolWaitBounded: a call waiting for a busy pool gives up with its
// context, then the pool serves again once the slot is free.
func TestPoolWaitBounded(t *testing.T) {
	h := thrifttest.NewHandler()
	addr := thrifttest.Serve(t, thrifttest.Setup{}, h)
	c := newClient(t, thrifttest.Setup{}, addr, nil)
	block, _ := thriftfixture.Encode(wire.Binary, &bench.BenchServiceGetMediumArgs{ID: 1, Title: "block"})
	done := make(chan error, 1)
	go func() {
		_, err := c.Call(context.Background(), "GetMedium", block, nil)
		done <- err
	}()
	waitBusy(t, h)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := c.Call(ctx, "Echo", echoArgs(wire.Binary), nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Call on a busy pool = %v, want DeadlineExceeded", err)
	}
	close(h.Block)
	if err := <-done; err != nil {
		t.Fatalf("blocked call: %v", err)
	}
	if _, err := c.Call(context.Background(), "Echo", echoArgs(wire.Binary), nil); err != nil {
		t.Fatal(err)
	}
}

// waitBusy waits until the handler holds a GetMedium call.
func waitBusy(t *testing.T, h *thrifttest.Handler) {
	t.Helper()
	for range 500 {
		if h.Busy() > 0 {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
	t.Fatal("the blocking call never reached the handler")
}

func TestClosed(t *testing.T) {
	addr := thrifttest.Serve(t, thrifttest.Setup{}, thrifttest.NewHandler())
	c := newClient(t, thrifttest.Setup{}, addr, nil)
	if _, err := c.Call(context.Background(), "Echo", echoArgs(wire.Binary), nil); err != nil {
		t.Fatal(err)
	}
	c.Close()
	if _, err := c.Call(context.Background(), "Echo", echoArgs(wire.Binary), nil); !errors.Is(err, client.ErrClosed) {
		t.Fatalf("Call after Close = %v, want ErrClosed", err)
	}
}

func TestNewErrors(t *testing.T) {
	for _, k := range []struct {
		opts client.Options
		want string
	}{
		{client.Options{}, "thrift/client: no address (host:port or unix:path)"},
		{client.Options{Addr: "x:1", Transport: 7}, "thrift/client: unknown transport transport(7)"},
		{client.Options{Addr: "x:1", Protocol: 5}, "thrift/client: unknown protocol protocol(5)"},
		{client.Options{Addr: "x:1", Multiplexed: "a:b"}, `thrift/client: multiplexed service name "a:b" holds a colon`},
	} {
		if _, err := client.New(k.opts); err == nil || err.Error() != k.want {
			t.Errorf("New(%+v) = %v, want %q", k.opts, err, k.want)
		}
	}
}

// TestCloseLeaksNothing: Close ends the connections and the goroutines
// that watch shared contexts (the server runs in another process, so
// every goroutine counted is the client's or the test's).
func TestCloseLeaksNothing(t *testing.T) {
	s := thrifttest.Setup{Transport: client.Buffered}
	addr := thrifttest.ServeApart(t, s)
	before := runtime.NumGoroutine()
	c, err := client.New(client.Options{Addr: addr, Transport: s.Transport, MaxConns: 3})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	for range 6 {
		wg.Go(func() {
			for range 20 {
				if _, err := c.Call(ctx, "Echo", echoArgs(wire.Binary), nil); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if runtime.NumGoroutine() <= before {
		t.Fatal("no connection watches the shared context")
	}
	c.Close()
	for i := 0; runtime.NumGoroutine() > before; i++ {
		if i == 500 {
			t.Fatalf("%d goroutines after Close, %d before", runtime.NumGoroutine(), before)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
