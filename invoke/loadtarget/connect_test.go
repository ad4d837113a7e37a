package loadtarget

import (
	"context"
	"strings"
	"testing"
	"time"

	testv1 "github.com/rpckit/rpckit/internal/gen/rpckit/test/v1"
	"github.com/rpckit/rpckit/internal/rpctest"
	"github.com/rpckit/rpckit/invoke"
	"github.com/rpckit/rpckit/load"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
)

// TestConnectEngine: the connect engine calls a connect-go server over
// gRPC-Web and Connect, labels failures by gRPC code and records each
// stream message, as the gRPC engines do.
func TestConnectEngine(t *testing.T) {
	srv := rpctest.Connect(t)
	for _, p := range []invoke.Protocol{invoke.ProtocolConnect, invoke.ProtocolGRPCWeb} {
		t.Run(string(p), func(t *testing.T) {
			dial := func(ctx context.Context) (*invoke.Conn, error) {
				return invoke.Dial(ctx, srv.Addr, invoke.DialOptions{Plaintext: true, Protocol: p,
					HTTP: invoke.HTTPOptions{HTTP2PriorKnowledge: true}})
			}
			run := func(o Options, n int64) *load.Result {
				t.Helper()
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				conn, err := dial(ctx)
				if err != nil {
					t.Fatal(err)
				}
				defer conn.Close()
				o.Engine, o.Conn, o.Dial, o.Connections = Connect, conn, dial, 2
				tg, err := New(ctx, o)
				if err != nil {
					t.Fatal(err)
				}
				defer tg.Close()
				lo := load.Options{Concurrency: 2, Count: n, Timeout: 5 * time.Second}
				tg.Apply(&lo)
				res, err := load.Run(ctx, lo, tg.Call)
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			ok := run(Options{Method: method("Echo"), Requests: [][]byte{marshal(t, &testv1.EchoRequest{Number: 7})}}, 20)
			if ok.Calls != 20 || ok.Codes["OK"] != 20 {
				t.Errorf("unary: calls %d codes %v", ok.Calls, ok.Codes)
			}
			failed := run(Options{Method: method("Echo"), Requests: [][]byte{marshal(t, &testv1.EchoRequest{FailCode: 5})}}, 10)
			if failed.Errors != 10 || failed.Codes["NOT_FOUND"] != 10 {
				t.Errorf("failing: errors %d codes %v", failed.Errors, failed.Codes)
			}
			stream := run(Options{Method: method("Chat"), Requests: [][]byte{marshal(t, &testv1.EchoRequest{}), marshal(t, &testv1.EchoRequest{})}}, 10)
			if stream.Errors != 0 || stream.Extra.Count() != 2*stream.Calls {
				t.Errorf("bidi: errors %d (%s), %d message latencies for %d calls of 2", stream.Errors, stream.FirstError, stream.Extra.Count(), stream.Calls)
			}
		})
	}
}

// TestEngineMatchesProtocol: grpc-go cannot speak the web protocols, nor
// connect-go's engine gRPC here.
func TestEngineMatchesProtocol(t *testing.T) {
	web, err := invoke.NewConn("127.0.0.1:1", invoke.DialOptions{Plaintext: true, Protocol: invoke.ProtocolConnect})
	if err != nil {
		t.Fatal(err)
	}
	defer web.Close()
	grpcConn, err := invoke.NewConn("127.0.0.1:1", invoke.DialOptions{Plaintext: true})
	if err != nil {
		t.Fatal(err)
	}
	defer grpcConn.Close()
	for _, c := range []struct {
		e    Engine
		conn *invoke.Conn
	}{{GRPC, web}, {Connect, grpcConn}} { // web is Connect
		_, err := New(context.Background(), Options{Engine: c.e, Conn: c.conn, Method: method("Echo"), Requests: [][]byte{{}}})
		if err == nil || !strings.Contains(err.Error(), "cannot speak") {
			t.Errorf("%s engine on a %s conn: %v", c.e, c.conn.Protocol(), err)
		}
	}
}

// TestLeanWeb: the lean engine speaks gRPC-Web (unary and server
// streaming) and Connect (unary) over h2c to a connect-go server, failures
// by code and message from the trailer frame, the headers or Connect's
// JSON error body, and deadlines sent to the server.
func TestLeanWeb(t *testing.T) {
	srv := rpctest.Connect(t)
	for _, p := range []invoke.Protocol{invoke.ProtocolGRPCWeb, invoke.ProtocolConnect} {
		t.Run(string(p), func(t *testing.T) {
			conn, err := invoke.NewConn(srv.Addr, invoke.DialOptions{Plaintext: true, Protocol: p,
				HTTP: invoke.HTTPOptions{HTTP2PriorKnowledge: true}})
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			run := func(o Options, lo load.Options) *load.Result {
				t.Helper()
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				o.Engine, o.Conn, o.Address = Lean, conn, srv.Addr
				o.Lean.Plaintext = true
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
			n := func(calls int64) load.Options {
				return load.Options{Concurrency: 2, Count: calls, Timeout: 5 * time.Second}
			}
			ok := run(Options{Method: method("Echo"), Requests: [][]byte{marshal(t, &testv1.EchoRequest{Number: 7})}}, n(20))
			if ok.Calls != 20 || ok.Codes["OK"] != 20 {
				t.Errorf("unary: calls %d codes %v first error %q", ok.Calls, ok.Codes, ok.FirstError)
			}
			failed := run(Options{Method: method("Echo"), Requests: [][]byte{marshal(t, &testv1.EchoRequest{FailCode: 5, FailMessage: "gone"})}}, n(10))
			if failed.Errors != 10 || failed.Codes["NOT_FOUND"] != 10 || !strings.Contains(failed.FirstError, "gone") {
				t.Errorf("failing: errors %d codes %v first %q", failed.Errors, failed.Codes, failed.FirstError)
			}
			slow := run(Options{Method: method("Echo"), Requests: [][]byte{marshal(t, &testv1.EchoRequest{Delay: durationpb.New(3 * time.Second)})}},
				load.Options{Concurrency: 2, Count: 2, Timeout: 200 * time.Millisecond})
			if slow.Codes["DEADLINE_EXCEEDED"] != 2 {
				t.Errorf("deadline: codes %v", slow.Codes)
			}
			if p == invoke.ProtocolConnect {
				_, err := New(context.Background(), Options{Engine: Lean, Conn: conn, Address: srv.Addr, Method: method("Count"), Requests: [][]byte{{}}})
				if err == nil || !strings.Contains(err.Error(), "unary methods only") {
					t.Errorf("lean Connect stream: %v", err)
				}
				return
			}
			stream := run(Options{Method: method("Count"), Requests: [][]byte{marshal(t, &testv1.CountRequest{Count: 3})}}, n(10))
			if stream.Errors != 0 || stream.Extra.Count() != 3*stream.Calls {
				t.Errorf("stream: errors %d (%s), %d message latencies for %d calls of 3", stream.Errors, stream.FirstError, stream.Extra.Count(), stream.Calls)
			}
			// The status after messages comes in the trailer frame.
			late := run(Options{Method: method("Count"), Requests: [][]byte{marshal(t, &testv1.CountRequest{Count: 3, FailAfter: 2, FailCode: 10})}}, n(10))
			if late.Codes["ABORTED"] != 10 || !strings.Contains(late.FirstError, "failed after 2 messages") || late.Extra.Count() != 20 {
				t.Errorf("late failure: codes %v first %q, %d messages", late.Codes, late.FirstError, late.Extra.Count())
			}
		})
	}
}

// BenchmarkWebUnary: one gRPC-Web or Connect unary call over h2c to the
// connect-go fixture, on the lean engine and on connect-go's, calls in
// parallel (8 per CPU) on one connection.
func BenchmarkWebUnary(b *testing.B) {
	srv := rpctest.Connect(b)
	req, _ := proto.Marshal(&testv1.EchoRequest{Item: &testv1.Item{Name: "bench", Id: 1}, Number: 7})
	for _, p := range []invoke.Protocol{invoke.ProtocolGRPCWeb, invoke.ProtocolConnect} {
		conn, err := invoke.NewConn(srv.Addr, invoke.DialOptions{Plaintext: true, Protocol: p,
			HTTP: invoke.HTTPOptions{HTTP2PriorKnowledge: true}})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { conn.Close() })
		for _, e := range []Engine{Lean, Connect} {
			b.Run(string(p)+"/"+string(e), func(b *testing.B) {
				benchCalls(b, Options{Engine: e, Method: method("Echo"), Requests: [][]byte{req}, Conn: conn, Address: srv.Addr})
			})
		}
	}
}

func benchCalls(b *testing.B, o Options) {
	o.Lean.Plaintext = true
	tg, err := New(context.Background(), o)
	if err != nil {
		b.Fatal(err)
	}
	defer tg.Close()
	ctx := context.Background()
	b.ReportAllocs()
	b.SetParallelism(8)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := tg.Call(ctx); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
