package interceptor_test

import (
	"context"
	"log/slog"
	"regexp"
	"strings"
	"testing"

	"github.com/rpckit/rpckit/interceptor"
	"google.golang.org/grpc"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/metadata"
)

// hops is two servers with the standard chain, the front one calling the
// back one with the context of its own request.
type hops struct {
	logs      *logBuffer
	front     testgrpc.TestServiceClient
	backSeen  chan string // request id of the back handler's context
	backWire  chan string // x-request-id as it arrived at the back server
	frontSeen chan string
}

func startHops(t *testing.T) *hops {
	h := &hops{logs: &logBuffer{}, backSeen: make(chan string, 1), backWire: make(chan string, 1), frontSeen: make(chan string, 1)}
	// The chain gets the plain logger and wraps it itself; handlers log
	// through a NewLogHandler-wrapped one, as documented.
	chain := interceptor.ServerChain(interceptor.ServerChainOptions{Logger: h.logs.logger()})
	logger := slog.New(interceptor.NewLogHandler(h.logs.logger().Handler()))
	back := &testService{unary: func(ctx context.Context, _ *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
		id, _ := interceptor.RequestIDFromContext(ctx)
		h.backSeen <- id
		h.backWire <- first(metadata.ValueFromIncomingContext(ctx, interceptor.RequestIDHeader))
		logger.InfoContext(ctx, "back handler")
		return &testgrpc.SimpleResponse{}, nil
	}}
	clientChain, err := interceptor.ClientChain(interceptor.ClientChainOptions{})
	if err != nil {
		t.Fatal(err)
	}
	backClient := dial(t, serve(t, back, chain...), clientChain...)
	front := &testService{unary: func(ctx context.Context, req *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
		id, _ := interceptor.RequestIDFromContext(ctx)
		h.frontSeen <- id
		logger.InfoContext(ctx, "front handler")
		return backClient.UnaryCall(ctx, req)
	}}
	h.front = dial(t, serve(t, front, chain...))
	return h
}

func first(vals []string) string {
	if len(vals) == 0 {
		return ""
	}
	return vals[0]
}

func TestRequestIDTwoHops(t *testing.T) {
	h := startHops(t)
	ctx := metadata.AppendToOutgoingContext(testContext(t), interceptor.RequestIDHeader, "req-7f3a")
	var header metadata.MD
	if _, err := h.front.UnaryCall(ctx, &testgrpc.SimpleRequest{}, grpc.Header(&header)); err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]string{
		"response header": first(header.Get(interceptor.RequestIDHeader)),
		"front context":   <-h.frontSeen,
		"back wire":       <-h.backWire,
		"back context":    <-h.backSeen,
	} {
		if got != "req-7f3a" {
			t.Errorf("%s: request id %q, want %q", name, got, "req-7f3a")
		}
	}
	h.wantLogged(t, "req-7f3a")
}

// wantLogged checks every handler and access log line carries id.
func (h *hops) wantLogged(t *testing.T, id string) {
	t.Helper()
	recs := h.logs.lines(t)
	for _, r := range withMsg(recs, "finished call") {
		if r["grpc.service"] != "grpc.testing.TestService" || r["grpc.method"] != "UnaryCall" || r["grpc.code"] != "OK" ||
			r["peer.address"] == nil || r["grpc.duration"] == nil || r["level"] != "INFO" {
			t.Errorf("access log line lacks method, code, peer or duration: %v", r)
		}
	}
	want := map[string]int{"front handler": 1, "back handler": 1, "finished call": 2}
	for msg, n := range want {
		got := withMsg(recs, msg)
		if len(got) != n {
			t.Errorf("%d %q lines, want %d (log: %v)", len(got), msg, n, recs)
		}
		for _, r := range got {
			if r[interceptor.RequestIDAttr] != id {
				t.Errorf("%q line has request_id %v, want %q: %v", msg, r[interceptor.RequestIDAttr], id, r)
			}
		}
	}
}

var generatedID = regexp.MustCompile(`^[0-9a-f]{32}$`)

func TestRequestIDGenerated(t *testing.T) {
	h := startHops(t)
	var header metadata.MD
	if _, err := h.front.UnaryCall(testContext(t), &testgrpc.SimpleRequest{}, grpc.Header(&header)); err != nil {
		t.Fatal(err)
	}
	id := first(header.Get(interceptor.RequestIDHeader))
	if !generatedID.MatchString(id) {
		t.Fatalf("generated request id %q is not 32 hex digits", id)
	}
	if front, back := <-h.frontSeen, <-h.backSeen; front != id || back != id {
		t.Errorf("front saw %q, back saw %q, want both %q", front, back, id)
	}
	<-h.backWire
	h.wantLogged(t, id)
}

func TestRequestIDRejectsUnusable(t *testing.T) {
	h := startHops(t)
	bad := "has spaces and is long " + strings.Repeat("x", 200)
	ctx := metadata.AppendToOutgoingContext(testContext(t), interceptor.RequestIDHeader, bad)
	var header metadata.MD
	if _, err := h.front.UnaryCall(ctx, &testgrpc.SimpleRequest{}, grpc.Header(&header)); err != nil {
		t.Fatal(err)
	}
	if id := first(header.Get(interceptor.RequestIDHeader)); !generatedID.MatchString(id) {
		t.Errorf("unusable id replaced by %q, want a generated one", id)
	}
	<-h.frontSeen
	<-h.backSeen
	<-h.backWire
}

func TestRequestIDStream(t *testing.T) {
	seen := make(chan string, 1)
	svc := &testService{duplex: func(ss testgrpc.TestService_FullDuplexCallServer) error {
		id, _ := interceptor.RequestIDFromContext(ss.Context())
		seen <- id
		return nil
	}}
	client := dial(t, serve(t, svc, interceptor.ServerChain(interceptor.ServerChainOptions{NoAccessLog: true})...))
	ctx := interceptor.WithRequestID(testContext(t), "stream-1")
	stream, err := client.FullDuplexCall(metadata.AppendToOutgoingContext(ctx, interceptor.RequestIDHeader, "stream-1"))
	if err != nil {
		t.Fatal(err)
	}
	header, err := stream.Header()
	if err != nil {
		t.Fatal(err)
	}
	if got := first(header.Get(interceptor.RequestIDHeader)); got != "stream-1" {
		t.Errorf("stream header request id %q, want stream-1", got)
	}
	if got := <-seen; got != "stream-1" {
		t.Errorf("stream handler saw %q, want stream-1", got)
	}
}

// TestRequestIDClientKeepsExplicit: an id already in the outgoing metadata
// wins over the context's.
func TestRequestIDClientKeepsExplicit(t *testing.T) {
	seen := make(chan []string, 1)
	svc := &testService{unary: func(ctx context.Context, _ *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
		seen <- metadata.ValueFromIncomingContext(ctx, interceptor.RequestIDHeader)
		return &testgrpc.SimpleResponse{}, nil
	}}
	client := dial(t, serve(t, svc), grpc.WithChainUnaryInterceptor(interceptor.UnaryClientRequestID()))
	ctx := interceptor.WithRequestID(testContext(t), "from-context")
	ctx = metadata.AppendToOutgoingContext(ctx, interceptor.RequestIDHeader, "explicit")
	if _, err := client.UnaryCall(ctx, &testgrpc.SimpleRequest{}); err != nil {
		t.Fatal(err)
	}
	if got := <-seen; len(got) != 1 || got[0] != "explicit" {
		t.Errorf("server saw %q, want [explicit]", got)
	}
}

// TestRequestIDKeepsOuterContext: when an interceptor outside has already
// put an id in the context, and more after it, the request-id interceptor
// and the unary chain keep that id and hand the handler the whole context,
// not the one the id was put in.
func TestRequestIDKeepsOuterContext(t *testing.T) {
	type key struct{}
	outer := func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		ctx = interceptor.WithRequestID(ctx, "outer-id")
		return h(context.WithValue(ctx, key{}, "after the id"), req)
	}
	for name, inner := range map[string]grpc.UnaryServerInterceptor{
		"UnaryServerRequestID": interceptor.UnaryServerRequestID(),
		"UnaryServerChain":     interceptor.UnaryServerChain(interceptor.ServerChainOptions{Logger: slog.New(slog.DiscardHandler)}),
	} {
		t.Run(name, func(t *testing.T) {
			type seen struct{ id, value any }
			got := make(chan seen, 1)
			svc := &testService{unary: func(ctx context.Context, _ *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
				id, _ := interceptor.RequestIDFromContext(ctx)
				got <- seen{id, ctx.Value(key{})}
				return &testgrpc.SimpleResponse{}, nil
			}}
			client := dial(t, serve(t, svc, grpc.ChainUnaryInterceptor(outer, inner)))
			var header metadata.MD
			if _, err := client.UnaryCall(testContext(t), &testgrpc.SimpleRequest{}, grpc.Header(&header)); err != nil {
				t.Fatal(err)
			}
			if s := <-got; s.id != "outer-id" || s.value != "after the id" {
				t.Errorf("handler saw id %v and value %v, want outer-id and the outer value", s.id, s.value)
			}
			if ids := header.Get(interceptor.RequestIDHeader); len(ids) != 1 || ids[0] != "outer-id" {
				t.Errorf("response header %v, want [outer-id]", ids)
			}
		})
	}
}
