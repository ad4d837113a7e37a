package interceptor_test

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/rpckit/rpckit/interceptor"
	"google.golang.org/grpc/codes"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/status"
)

// TestAccessLogLines: every call's line goes to AccessLogger, not to
// Logger, and its duration is a Go duration string, in JSON as in text.
func TestAccessLogLines(t *testing.T) {
	var main, access logBuffer
	svc := &testService{
		unary: func(context.Context, *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
			time.Sleep(2 * time.Millisecond)
			return &testgrpc.SimpleResponse{}, nil
		},
		duplex: func(ss testgrpc.TestService_FullDuplexCallServer) error {
			if _, err := ss.Recv(); err != io.EOF {
				return status.Error(codes.InvalidArgument, "want no requests")
			}
			return nil
		},
	}
	addr := serve(t, svc, interceptor.ServerChain(interceptor.ServerChainOptions{Logger: main.logger(), AccessLogger: access.logger()})...)
	client := dial(t, addr)
	ctx := testContext(t)
	if _, err := client.UnaryCall(ctx, &testgrpc.SimpleRequest{}); err != nil {
		t.Fatal(err)
	}
	stream, err := client.FullDuplexCall(ctx)
	if err != nil {
		t.Fatal(err)
	}
	stream.CloseSend()
	if _, err := stream.Recv(); err != io.EOF {
		t.Fatalf("stream: %v", err)
	}
	if recs := withMsg(main.lines(t), "finished call"); len(recs) != 0 {
		t.Errorf("%d access log lines on Logger, want them on AccessLogger: %v", len(recs), recs)
	}
	recs := withMsg(access.lines(t), "finished call")
	if len(recs) != 2 {
		t.Fatalf("%d access log lines, want 2: %v", len(recs), recs)
	}
	for _, r := range recs {
		s, ok := r["grpc.duration"].(string)
		d, err := time.ParseDuration(s)
		if !ok || err != nil || d <= 0 {
			t.Errorf("%s: grpc.duration %#v is not a Go duration string", r["grpc.method"], r["grpc.duration"])
		}
		if r["grpc.method"] == "UnaryCall" && d < 2*time.Millisecond {
			t.Errorf("UnaryCall took %s, logged as %v", 2*time.Millisecond, s)
		}
	}
}
