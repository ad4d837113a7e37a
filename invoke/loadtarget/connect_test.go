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
)

// TestConnectEngine: the connect engine calls a connect-go server over
// gRPC-Web and Connect, labels failures by gRPC code and records each
// stream message, as the gRPC engines do.
func TestConnectEngine(t *testing.T) {
	srv, err := rpctest.StartConnect()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
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
	}{{GRPC, web}, {Lean, web}, {Connect, grpcConn}} {
		_, err := New(context.Background(), Options{Engine: c.e, Conn: c.conn, Method: method("Echo"), Requests: [][]byte{{}}})
		if err == nil || !strings.Contains(err.Error(), "cannot speak") {
			t.Errorf("%s engine on a %s conn: %v", c.e, c.conn.Protocol(), err)
		}
	}
}
