package interceptor_test

import (
	"context"
	"strings"
	"testing"

	"github.com/rpckit/rpckit/interceptor"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

func panickingHandler(context.Context, *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
	panic("boom in handler")
}

func TestRecoveryUnary(t *testing.T) {
	logs := &logBuffer{}
	svc := &testService{unary: panickingHandler}
	chain := []grpc.ServerOption{grpc.ChainUnaryInterceptor(
		interceptor.UnaryServerRequestID(), interceptor.UnaryServerRecovery(logs.logger()))}
	client := dial(t, serve(t, svc, chain...))
	ctx := metadata.AppendToOutgoingContext(testContext(t), interceptor.RequestIDHeader, "panic-1")
	_, err := client.UnaryCall(ctx, &testgrpc.SimpleRequest{})
	if st := status.Convert(err); st.Code() != codes.Internal || strings.Contains(st.Message(), "boom") {
		t.Fatalf("got %v, want INTERNAL without the panic value", err)
	}
	wantPanicLogged(t, logs, "panic-1", "panickingHandler")
	// The server survives.
	svc.unary = func(context.Context, *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
		return &testgrpc.SimpleResponse{}, nil
	}
	if _, err := client.UnaryCall(ctx, &testgrpc.SimpleRequest{}); err != nil {
		t.Fatalf("call after the panic: %v", err)
	}
}

func TestRecoveryStream(t *testing.T) {
	logs := &logBuffer{}
	svc := &testService{duplex: func(testgrpc.TestService_FullDuplexCallServer) error { panic("boom in stream") }}
	chain := []grpc.ServerOption{grpc.ChainStreamInterceptor(
		interceptor.StreamServerRequestID(), interceptor.StreamServerRecovery(logs.logger()))}
	client := dial(t, serve(t, svc, chain...))
	ctx := metadata.AppendToOutgoingContext(testContext(t), interceptor.RequestIDHeader, "panic-2")
	stream, err := client.FullDuplexCall(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stream.Recv(); status.Code(err) != codes.Internal {
		t.Fatalf("got %v, want INTERNAL", err)
	}
	wantPanicLogged(t, logs, "panic-2", "TestRecoveryStream")
}

func wantPanicLogged(t *testing.T, logs *logBuffer, id, frame string) {
	t.Helper()
	recs := withMsg(logs.lines(t), "panic recovered")
	if len(recs) != 1 {
		t.Fatalf("%d panic lines, want 1", len(recs))
	}
	r := recs[0]
	if r["level"] != "ERROR" || r[interceptor.RequestIDAttr] != id || !strings.HasPrefix(r["panic"].(string), "boom") {
		t.Errorf("panic line %v: want level ERROR, request_id %q, the panic value", r, id)
	}
	if stack, _ := r["stack"].(string); !strings.Contains(stack, frame) {
		t.Errorf("stack does not show the panicking frame %s:\n%s", frame, stack)
	}
}
