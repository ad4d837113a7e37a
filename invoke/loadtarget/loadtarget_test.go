package loadtarget

import (
	"context"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	testv1 "github.com/rpckit/rpckit/internal/gen/rpckit/test/v1"
	"github.com/rpckit/rpckit/internal/rpctest"
	"github.com/rpckit/rpckit/invoke"
	"github.com/rpckit/rpckit/load"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/durationpb"
)

// server is the Test service on loopback, noting the user-agent and the
// x-test metadata of every call.
type server struct {
	addr string
	mu   sync.Mutex
	seen map[string]int // "user-agent contains grpc-go" or not, and metadata
}

func (s *server) note(ctx context.Context) {
	md, _ := metadata.FromIncomingContext(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	ua := strings.Join(md.Get("user-agent"), " ")
	s.seen["grpc-go="+boolString(strings.Contains(ua, "grpc-go"))]++
	for _, v := range md.Get("x-test") {
		s.seen["x-test="+v]++
	}
}

func boolString(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func startServer(t *testing.T) *server {
	t.Helper()
	s := &server{seen: map[string]int{}}
	srv := grpc.NewServer(
		grpc.UnaryInterceptor(func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
			s.note(ctx)
			return h(ctx, req)
		}),
		grpc.StreamInterceptor(func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, h grpc.StreamHandler) error {
			s.note(ss.Context())
			return h(srv, ss)
		}))
	testv1.RegisterTestServer(srv, rpctest.Service{})
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(lis)
	t.Cleanup(srv.Stop)
	s.addr = lis.Addr().String()
	return s
}

func method(name string) protoreflect.MethodDescriptor {
	return testv1.File_rpckit_test_v1_test_proto.Services().ByName("Test").Methods().ByName(protoreflect.Name(name))
}

func marshal(t *testing.T, m proto.Message) []byte {
	t.Helper()
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// run builds a target on engine and runs n calls through load.Run.
func run(t *testing.T, s *server, engine Engine, o Options, n int64) *load.Result {
	return runWithin(t, s, engine, o, load.Options{Concurrency: 2, Count: n, Timeout: 5 * time.Second})
}

func runWithin(t *testing.T, s *server, engine Engine, o Options, lo load.Options) *load.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	conn, err := invoke.Dial(ctx, s.addr, invoke.DialOptions{Plaintext: true})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	o.Engine, o.Address, o.Conn = engine, s.addr, conn
	o.Lean.Plaintext = true
	o.Dial = func(ctx context.Context) (*invoke.Conn, error) {
		return invoke.Dial(ctx, s.addr, invoke.DialOptions{Plaintext: true})
	}
	tg, err := New(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	defer tg.Close()
	tg.Apply(&lo)
	res, err := load.Run(ctx, lo, tg.Call)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestEnginesCallAlike: both engines make the same calls, send the
// metadata, label failures by gRPC code and record each stream message.
func TestEnginesCallAlike(t *testing.T) {
	for _, e := range []Engine{Lean, GRPC} {
		t.Run(string(e), func(t *testing.T) {
			s := startServer(t)
			md := metadata.Pairs("x-test", "yes")
			ok := run(t, s, e, Options{Method: method("Echo"), Metadata: md, Connections: 2,
				Requests: [][]byte{marshal(t, &testv1.EchoRequest{Number: 7})}}, 20)
			if ok.Calls != 20 || ok.Errors != 0 || ok.Codes["OK"] != 20 {
				t.Errorf("unary: calls %d errors %d codes %v", ok.Calls, ok.Errors, ok.Codes)
			}
			failed := run(t, s, e, Options{Method: method("Echo"),
				Requests: [][]byte{marshal(t, &testv1.EchoRequest{FailCode: 5, FailMessage: "gone"})}}, 10)
			if failed.Errors != 10 || failed.Codes["NOT_FOUND"] != 10 {
				t.Errorf("failing: errors %d codes %v", failed.Errors, failed.Codes)
			}
			stream := run(t, s, e, Options{Method: method("Count"),
				Requests: [][]byte{marshal(t, &testv1.CountRequest{Count: 3})}}, 10)
			if stream.Errors != 0 || stream.Extra.Count() != 3*stream.Calls {
				t.Errorf("stream: errors %d, %d message latencies for %d calls of 3", stream.Errors, stream.Extra.Count(), stream.Calls)
			}
			grpcGo := boolString(e == GRPC)
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.seen["grpc-go="+grpcGo] < 40 || s.seen["x-test=yes"] != 20 {
				t.Errorf("server saw %v; want the %s engine's calls and 20 with the metadata", s.seen, e)
			}
		})
	}
}

func TestRenderAndCounts(t *testing.T) {
	s := startServer(t)
	var n int64
	var mu sync.Mutex
	render := func(context.Context) ([][]byte, error) {
		mu.Lock()
		defer mu.Unlock()
		n++
		return [][]byte{marshal(t, &testv1.EchoRequest{Number: n})}, nil
	}
	for _, e := range []Engine{Lean, GRPC} {
		res := run(t, s, e, Options{Method: method("Echo"), Render: render}, 5)
		if res.Errors != 0 || res.Calls != 5 {
			t.Errorf("%s rendered: calls %d errors %d", e, res.Calls, res.Errors)
		}
		two := func(context.Context) ([][]byte, error) { return [][]byte{{}, {}}, nil }
		res = run(t, s, e, Options{Method: method("Echo"), Render: two}, 3)
		if res.Errors != 3 || !strings.Contains(res.FirstError, "takes one request message; the data has 2") {
			t.Errorf("%s two rendered requests: errors %d, first %q", e, res.Errors, res.FirstError)
		}
	}
	if _, err := New(context.Background(), Options{Method: method("Echo"), Requests: [][]byte{{}, {}}}); err == nil || !strings.Contains(err.Error(), "takes one request message") {
		t.Errorf("two requests for a unary method: %v", err)
	}
	if _, err := New(context.Background(), Options{Engine: "h2load", Method: method("Echo"), Requests: [][]byte{{}}}); err == nil || !strings.Contains(err.Error(), `engine "h2load": want lean, grpc or connect`) {
		t.Errorf("unknown engine: %v", err)
	}
	if _, err := New(context.Background(), Options{Engine: GRPC, Method: method("Echo"), Requests: [][]byte{{}}}); err == nil {
		t.Error("grpc engine without a connection: no error")
	}
}

// TestApplyMovesTheTimeoutIntoLean: the lean engine bounds each call
// itself; grpc-go's calls keep load's per-call context.
func TestApplyMovesTheTimeoutIntoLean(t *testing.T) {
	s := startServer(t)
	slow := [][]byte{marshal(t, &testv1.EchoRequest{Delay: durationpb.New(3 * time.Second)})}
	for _, e := range []Engine{Lean, GRPC} {
		res := runWithin(t, s, e, Options{Method: method("Echo"), Requests: slow},
			load.Options{Concurrency: 2, Count: 2, Timeout: 200 * time.Millisecond})
		if res.Codes["DEADLINE_EXCEEDED"] != 2 || res.Failed.Max() > 2*time.Second {
			t.Errorf("%s: codes %v, slowest failure %s; want 2 deadlines at 200ms", e, res.Codes, res.Failed.Max())
		}
	}
	lt := &Target{lean: &leanTarget{}}
	o := load.Options{Timeout: 3 * time.Second}
	lt.Apply(&o)
	if o.Timeout != 0 || o.Drain != 3*time.Second || lt.lean.opts.Timeout != 3*time.Second || o.Code == nil {
		t.Errorf("lean: options %+v, call timeout %s", o, lt.lean.opts.Timeout)
	}
	gt := &Target{}
	o = load.Options{Timeout: 3 * time.Second, Drain: time.Second}
	gt.Apply(&o)
	if o.Timeout != 3*time.Second || o.Drain != time.Second || o.Code == nil {
		t.Errorf("grpc: options %+v", o)
	}
}
