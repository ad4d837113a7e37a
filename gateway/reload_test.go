package gateway_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rpckit/rpckit/gateway"
	"github.com/rpckit/rpckit/internal/rpctest"
	"github.com/rpckit/rpckit/invoke"
	"github.com/rpckit/rpckit/schema"
)

// echo sends REST calls through g, which convert JSON to wire and back:
// one that succeeds, and one that fails with details (Any messages).
func echo(t *testing.T, g *gateway.Gateway) {
	t.Helper()
	for _, c := range []struct {
		body, want string
		status     int
	}{
		{`{"item":{"name":"a","tags":["x"]},"number":"3"}`, `"name":"a"`, http.StatusOK},
		{`{"failCode":5}`, `"reason":"REQUESTED"`, http.StatusNotFound},
	} {
		rec := httptest.NewRecorder()
		g.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/v1/echo", strings.NewReader(c.body)))
		if rec.Code != c.status || !strings.Contains(rec.Body.String(), c.want) {
			t.Fatalf("POST /v1/echo %s: %d %s", c.body, rec.Code, rec.Body)
		}
	}
}

// heap returns the bytes of live objects after a full collection.
func heap() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestReloadHeapFlat: reloading builds every table of a schema again (the
// compiled types and the converter's plans of them); the old ones go with
// the routes they served, so a gateway reloaded every minute for days
// holds what one reload holds. Reload loads from the same source again;
// rpckit gateway asks the upstream again, into new descriptors, each time.
func TestReloadHeapFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("1,000 reloads")
	}
	g, srv := rpctest.NewGateway(t, gateway.Options{})
	conn, err := invoke.Dial(context.Background(), srv.Addr, invoke.DialOptions{Plaintext: true})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, c := range []struct {
		name string
		load func(context.Context) error
	}{
		{"same source", g.Reload},
		{"new source", func(ctx context.Context) error {
			src := schema.Reflection(conn.ClientConn(), schema.ReflectionOptions{})
			defer src.Close()
			return g.Load(ctx, src)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			reload := func(n int) {
				for range n {
					if err := c.load(context.Background()); err != nil {
						t.Fatal(err)
					}
					echo(t, g)
				}
			}
			reload(50)
			before := heap()
			reload(1000)
			after := heap()
			grew := int64(after) - int64(before)
			t.Logf("heap %d KiB before 1,000 reloads, %d KiB after (%+d KiB)", before>>10, after>>10, grew>>10)
			if grew > 2<<20 {
				t.Fatalf("the heap grew by %d KiB over 1,000 reloads; want it flat (under 2 MiB)", grew>>10)
			}
		})
	}
}

// TestLoadHungUpstream: a load from an upstream that accepts connections
// and never answers ends with its context, and until then, and after it,
// requests are served on the routes in use.
func TestLoadHungUpstream(t *testing.T) {
	g, _ := rpctest.NewGateway(t, gateway.Options{})
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer lis.Close()
	go func() {
		for {
			c, err := lis.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open, never answered
		}
	}()
	hung, err := invoke.NewConn(lis.Addr().String(), invoke.DialOptions{Plaintext: true})
	if err != nil {
		t.Fatal(err)
	}
	defer hung.Close()
	src := schema.Reflection(hung.ClientConn(), schema.ReflectionOptions{})
	defer src.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- g.Load(ctx, src) }()
	echo(t, g) // while the load waits
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Load from a hung upstream: %v, want a deadline error", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Load from a hung upstream outlived its context by 10 s")
	}
	if !g.Ready() || len(g.Routes()) == 0 {
		t.Fatal("a failed load dropped the routes")
	}
	echo(t, g)
}

// TestPending: a gateway made before its upstream's services are loaded
// answers 503 and is not ready, then serves once they are.
func TestPending(t *testing.T) {
	srv, err := rpctest.Start(rpctest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	conn, err := invoke.NewConn(srv.Addr, invoke.DialOptions{Plaintext: true})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	g, err := gateway.NewPending(gateway.Options{Conn: conn, Probes: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ method, path, body string }{
		{"GET", "/readyz", "not ready"},
		{"POST", "/v1/echo", `"code":14`},
	} {
		rec := httptest.NewRecorder()
		g.ServeHTTP(rec, httptest.NewRequest(c.method, c.path, strings.NewReader("{}")))
		if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), c.body) {
			t.Fatalf("%s %s before loading: %d %s", c.method, c.path, rec.Code, rec.Body)
		}
	}
	src := schema.Reflection(conn.ClientConn(), schema.ReflectionOptions{})
	defer src.Close()
	if err := g.Load(context.Background(), src); err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	g.ServeHTTP(rec, httptest.NewRequest("GET", "/readyz", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /readyz after loading: %d %s", rec.Code, rec.Body)
	}
	echo(t, g)
}
