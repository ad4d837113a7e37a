package thriftgw_test

import (
	"context"
	"log/slog"
	"net"
	"os"
	"testing"
	"time"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/rpckit/rpckit/internal/gen/thrift/rpckit/bench"
)

// TestMain quiets the Apache server's logging.
func TestMain(m *testing.M) {
	slog.SetDefault(slog.New(slog.DiscardHandler))
	os.Exit(m.Run())
}

// handler implements BenchService: echoes, derived values, a declared
// exception and oneway events on a channel.
type handler struct{ events chan string }

func (h *handler) Echo(_ context.Context, req *bench.Small) (*bench.Small, error) { return req, nil }

func (h *handler) GetMedium(_ context.Context, id int64, title string) (*bench.Medium, error) {
	if id < 0 {
		return nil, &bench.BenchError{Code: int32(id), Message: title}
	}
	return &bench.Medium{Title: title, Total: id, Tags: []string{"a", "b"}, Labels: map[string]string{"k": "v"}}, nil
}

func (h *handler) PutMedium(_ context.Context, req *bench.Medium) (*bench.Medium, error) {
	return req, nil
}

func (h *handler) Trim(_ context.Context, req *bench.Medium) (*bench.MediumPart, error) {
	return &bench.MediumPart{}, nil
}

func (h *handler) Grow(_ context.Context, seed *bench.Medium, pages int32) (*bench.Large, error) {
	l := &bench.Large{Main: seed, Count: pages, Note: "grown"}
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

// serveApache serves h, framed binary, with the Apache Go library's
// TSimpleServer on a free loopback port until the test ends.
func serveApache(t testing.TB, h *handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg := &thrift.TConfiguration{}
	sock := thrift.NewTServerSocketFromFactoryTimeout(func(net.Addr) (net.Listener, error) { return ln, nil }, ln.Addr(), 0)
	srv := thrift.NewTSimpleServer4(bench.NewBenchServiceProcessor(h), sock,
		thrift.NewTFramedTransportFactoryConf(thrift.NewTTransportFactory(), cfg), thrift.NewTBinaryProtocolFactoryConf(cfg))
	srv.SetLogContext(context.Background())
	if err := srv.Listen(); err != nil {
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
	return ln.Addr().String()
}

// apacheClient is the Apache Go client of the server at addr.
func apacheClient(t testing.TB, addr string) *bench.BenchServiceClient {
	t.Helper()
	cfg := &thrift.TConfiguration{ConnectTimeout: 5 * time.Second, SocketTimeout: 10 * time.Second}
	trans := thrift.NewTFramedTransportConf(thrift.NewTSocketConf(addr, cfg), cfg)
	if err := trans.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { trans.Close() })
	prot := thrift.NewTBinaryProtocolConf(trans, cfg)
	return bench.NewBenchServiceClient(thrift.NewTStandardClient(prot, prot))
}
