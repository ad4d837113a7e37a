package lean

import (
	"context"
	"net"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	testv1 "github.com/rpckit/rpckit/internal/gen/rpckit/test/v1"
	"github.com/rpckit/rpckit/internal/rpctest"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
)

// TestMain fails the run when connection goroutines outlive the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		if leaked := waitNoTransports(5 * time.Second); leaked != "" {
			os.Stderr.WriteString("leaked goroutines:\n" + leaked)
			code = 1
		}
	}
	os.Exit(code)
}

func waitNoTransports(within time.Duration) string {
	deadline := time.Now().Add(within)
	for {
		buf := make([]byte, 1<<20)
		stacks := string(buf[:runtime.Stack(buf, true)])
		var leaked []string
		for _, g := range strings.Split(stacks, "\n\n") {
			if strings.Contains(g, "lean.(*transport)") {
				leaked = append(leaked, g)
			}
		}
		if len(leaked) == 0 || time.Now().After(deadline) {
			return strings.Join(leaked, "\n\n")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// probe serves methods of any name outside the fixture service, for tests
// that look at what the server saw.
type probe func(method string, stream grpc.ServerStream) error

// startServer serves the fixture service (and p, when set) on loopback
// with grpc-go.
func startServer(t testing.TB, p probe, opts ...grpc.ServerOption) (string, *grpc.Server) {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return lis.Addr().String(), serveOn(t, lis, p, opts...)
}

func serveOn(t testing.TB, lis net.Listener, p probe, opts ...grpc.ServerOption) *grpc.Server {
	if p != nil {
		opts = append(opts, grpc.UnknownServiceHandler(func(_ any, stream grpc.ServerStream) error {
			method, _ := grpc.MethodFromServerStream(stream)
			return p(method, stream)
		}))
	}
	srv := grpc.NewServer(opts...)
	testv1.RegisterTestServer(srv, rpctest.Service{})
	go srv.Serve(lis)
	t.Cleanup(srv.Stop)
	return srv
}

func dial(t testing.TB, addr string, opts Options) *Conn {
	t.Helper()
	if opts.TLS == nil {
		opts.Plaintext = true
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := Dial(ctx, addr, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func method(t testing.TB, name string, serverStreams bool) *Method {
	t.Helper()
	m, err := NewMethod("/rpckit.test.v1.Test/"+name, MethodOptions{ServerStreams: serverStreams})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func msg(t testing.TB, m proto.Message) Message {
	t.Helper()
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return NewMessage(b)
}

// collect gathers response messages into v's type.
func collect[T any, P interface {
	*T
	proto.Message
}](t testing.TB, out *[]P) *CallOptions {
	return &CallOptions{OnMessage: func(b []byte) {
		m := P(new(T))
		if err := proto.Unmarshal(b, m); err != nil {
			t.Errorf("response: %v", err)
		}
		*out = append(*out, m)
	}}
}

func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}
