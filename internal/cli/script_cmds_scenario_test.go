package cli_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"
	testv1 "github.com/rpckit/rpckit/internal/gen/rpckit/test/v1"
	"github.com/rpckit/rpckit/internal/rpctest"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/reflection"
	"google.golang.org/grpc/status"
)

func init() {
	scriptCmds["flowratio"] = cmdFlowRatio
	scriptCmds["chainserver"] = cmdChainServer
}

// cmdChainServer starts a gRPC server on loopback for the rest of the
// script (reflection on), and sets NAME to its address:
//
//	chainserver NAME
//
// Its Test/Echo checks a chain of two calls: a request without an item
// gets a new one-time token, in the response's item.tags[0] and number; a
// request whose item.name and number are an unused token's succeeds, and
// any other fails with FAILED_PRECONDITION.
func cmdChainServer(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: chainserver NAME")
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	srv := grpc.NewServer()
	testv1.RegisterTestServer(srv, &chainService{})
	reflection.Register(srv)
	go srv.Serve(lis)
	ts.Defer(srv.Stop)
	ts.Setenv(args[0], lis.Addr().String())
}

// chainService is the fixture service with a checking Echo.
type chainService struct {
	rpctest.Service
	tokens
}

func (c *chainService) Echo(_ context.Context, req *testv1.EchoRequest) (*testv1.EchoResponse, error) {
	return c.check(req)
}

// tokens issues and redeems the chain server's one-time tokens.
type tokens struct {
	mu     sync.Mutex
	next   int64
	issued map[int64]string
}

func (t *tokens) check(req *testv1.EchoRequest) (*testv1.EchoResponse, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.issued == nil {
		t.issued = map[int64]string{}
	}
	if req.GetItem() == nil {
		t.next++
		tok := fmt.Sprintf("tok-%d-%x", t.next, rand.Uint64())
		t.issued[t.next] = tok
		return &testv1.EchoResponse{Number: t.next, Item: &testv1.Item{Tags: []string{"x", tok}}}, nil
	}
	if tok, ok := t.issued[req.GetNumber()]; !ok || tok != req.GetItem().GetName() {
		return nil, status.Errorf(codes.FailedPrecondition, "token %d %q was not issued or is used", req.GetNumber(), req.GetItem().GetName())
	}
	delete(t.issued, req.GetNumber())
	return &testv1.EchoResponse{Number: req.GetNumber()}, nil
}

// cmdFlowRatio checks the calls of two flows in a JSON report of several
// flows (bench --scenario --format json):
//
//	flowratio FILE FLOW_A FLOW_B RATIO TOLERANCE
//
// It fails unless calls(A)/calls(B) is within TOLERANCE (a fraction, such
// as 0.02) of RATIO, and each flow made at least one call.
func cmdFlowRatio(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 5 {
		ts.Fatalf("usage: flowratio FILE FLOW_A FLOW_B RATIO TOLERANCE")
	}
	data, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	var rep struct {
		Flows []struct {
			Name  string `json:"name"`
			Calls int64  `json:"calls"`
		} `json:"flows"`
	}
	ts.Check(json.Unmarshal(data, &rep))
	calls := map[string]int64{}
	for _, f := range rep.Flows {
		calls[f.Name] = f.Calls
	}
	ratio, err := strconv.ParseFloat(args[3], 64)
	ts.Check(err)
	tol, err := strconv.ParseFloat(args[4], 64)
	ts.Check(err)
	a, b := calls[args[1]], calls[args[2]]
	if a == 0 || b == 0 {
		ts.Fatalf("flows %s and %s made %d and %d calls", args[1], args[2], a, b)
	}
	got := float64(a) / float64(b)
	ts.Logf("%s/%s: %d/%d calls = %.4f", args[1], args[2], a, b, got)
	if math.Abs(got/ratio-1) > tol {
		ts.Fatalf("%s/%s = %d/%d = %.4f, want %g within %g", args[1], args[2], a, b, got, ratio, tol)
	}
}
