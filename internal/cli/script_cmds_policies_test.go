package cli_test

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/rogpeppe/go-internal/testscript"
	testv1 "github.com/rpckit/rpckit/internal/gen/rpckit/test/v1"
	"github.com/rpckit/rpckit/internal/rpctest"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/reflection"
	"google.golang.org/grpc/status"
)

// The client policies' servers:
//
//	policyserver NAME MODE [ADDR]
//	                         starts a Test server on 127.0.0.1 (or ADDR)
//	                         whose Echo calls behave as MODE says; $NAME is
//	                         its address, $NAME_PORT its port
//	policymode NAME MODE     changes the mode and zeroes the count
//	policycalls NAME N       checks that N Echo calls reached the server
//	policyspread NAME...     checks that the servers' Echo calls are
//	                         within 10% of an even share of their sum
//
// MODE is ok; fail=N: N calls fail with UNAVAILABLE, the next succeeds,
// and so on; hang: every other call, the first included, waits for its
// caller to give up; down: every call fails with UNAVAILABLE.
func init() {
	scriptCmds["policyserver"] = cmdPolicyServer
	scriptCmds["policymode"] = cmdPolicyMode
	scriptCmds["policycalls"] = cmdPolicyCalls
	scriptCmds["policyspread"] = cmdPolicySpread
}

// policyServers holds each script's servers by name.
var policyServers sync.Map // policyKey -> *policyServer

type policyKey struct {
	ts   *testscript.TestScript
	name string
}

type policyServer struct {
	mu    sync.Mutex
	mode  string
	fails int // for fail=N
	calls atomic.Int64
}

func (p *policyServer) setMode(mode string) error {
	fails := 0
	switch {
	case mode == "ok", mode == "hang", mode == "down":
	case strings.HasPrefix(mode, "fail="):
		n, err := strconv.Atoi(strings.TrimPrefix(mode, "fail="))
		if err != nil || n < 1 {
			return fmt.Errorf("mode %q: want fail=N, N at least 1", mode)
		}
		fails, mode = n, "fail"
	default:
		return fmt.Errorf("mode %q: want ok, fail=N, hang or down", mode)
	}
	p.mu.Lock()
	p.mode, p.fails = mode, fails
	p.calls.Store(0)
	p.mu.Unlock()
	return nil
}

// intercept plays the mode on Echo calls.
func (p *policyServer) intercept(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	if info.FullMethod != "/rpckit.test.v1.Test/Echo" {
		return handler(ctx, req)
	}
	p.mu.Lock()
	mode, fails := p.mode, p.fails
	k := p.calls.Add(1) - 1
	p.mu.Unlock()
	switch {
	case mode == "down", mode == "fail" && k%int64(fails+1) < int64(fails):
		return nil, status.Error(codes.Unavailable, "policy server: failing as asked")
	case mode == "hang" && k%2 == 0:
		<-ctx.Done()
		return nil, status.FromContextError(ctx.Err()).Err()
	}
	return handler(ctx, req)
}

func cmdPolicyServer(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 || len(args) > 3 {
		ts.Fatalf("usage: policyserver NAME MODE [ADDR]")
	}
	p := &policyServer{}
	ts.Check(p.setMode(args[1]))
	addr := "127.0.0.1:0"
	if len(args) == 3 {
		addr = args[2]
	}
	lis, err := net.Listen("tcp", addr)
	ts.Check(err)
	srv := grpc.NewServer(grpc.UnaryInterceptor(p.intercept))
	testv1.RegisterTestServer(srv, rpctest.Service{})
	reflection.Register(srv)
	go srv.Serve(lis)
	key := policyKey{ts, args[0]}
	policyServers.Store(key, p)
	ts.Defer(func() {
		srv.Stop()
		policyServers.Delete(key)
	})
	ts.Setenv(args[0], lis.Addr().String())
	ts.Setenv(args[0]+"_PORT", strconv.Itoa(lis.Addr().(*net.TCPAddr).Port))
}

func policyServerOf(ts *testscript.TestScript, name string) *policyServer {
	p, ok := policyServers.Load(policyKey{ts, name})
	if !ok {
		ts.Fatalf("no policy server %s", name)
	}
	return p.(*policyServer)
}

func cmdPolicyMode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: policymode NAME MODE")
	}
	ts.Check(policyServerOf(ts, args[0]).setMode(args[1]))
}

func cmdPolicyCalls(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: policycalls NAME N")
	}
	want, err := strconv.ParseInt(args[1], 10, 64)
	ts.Check(err)
	got := policyServerOf(ts, args[0]).calls.Load()
	if (got == want) == neg {
		ts.Fatalf("policy server %s: %d Echo calls, want %s%d", args[0], got, map[bool]string{true: "not "}[neg], want)
	}
}

func cmdPolicySpread(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: policyspread NAME NAME...")
	}
	counts := make([]int64, len(args))
	var sum int64
	for i, name := range args {
		counts[i] = policyServerOf(ts, name).calls.Load()
		sum += counts[i]
	}
	even := float64(sum) / float64(len(args))
	ts.Logf("Echo calls: %v (even: %.1f)", counts, even)
	for i, c := range counts {
		if d := float64(c) - even; sum == 0 || d > even/10 || -d > even/10 {
			ts.Fatalf("policy server %s: %d of %d Echo calls, not within 10%% of %.1f", args[i], c, sum, even)
		}
	}
}
