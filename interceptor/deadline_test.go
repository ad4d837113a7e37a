package interceptor_test

import (
	"context"
	"testing"
	"time"

	"github.com/rpckit/rpckit/interceptor"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/status"
)

// deadlineService reports the deadline each handler saw, and waits for its
// context to end when asked with ResponseSize 1.
func deadlineService(seen chan<- time.Time) *testService {
	return &testService{
		unary: func(ctx context.Context, req *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
			d, _ := ctx.Deadline()
			seen <- d
			if req.GetResponseSize() == 1 {
				<-ctx.Done()
				return nil, status.FromContextError(ctx.Err()).Err()
			}
			return &testgrpc.SimpleResponse{}, nil
		},
		duplex: func(ss testgrpc.TestService_FullDuplexCallServer) error {
			d, _ := ss.Context().Deadline()
			seen <- d
			<-ss.Context().Done()
			return status.FromContextError(ss.Context().Err()).Err()
		},
	}
}

func TestMaxDeadlineCapsLongCalls(t *testing.T) {
	seen := make(chan time.Time, 1)
	chain := interceptor.ServerChain(interceptor.ServerChainOptions{MaxDeadline: 50 * time.Millisecond, NoAccessLog: true})
	client := dial(t, serve(t, deadlineService(seen), chain...))
	ctx := testContext(t) // 30s: longer than the cap
	start := time.Now()
	if _, err := client.UnaryCall(ctx, &testgrpc.SimpleRequest{ResponseSize: 1}); status.Code(err) != codes.DeadlineExceeded {
		t.Fatalf("got %v, want DEADLINE_EXCEEDED from the cap", err)
	}
	if d := <-seen; d.IsZero() || d.After(start.Add(time.Second)) {
		t.Errorf("handler deadline %v, want within the 50ms cap of %v", d, start)
	}
	stream, err := client.FullDuplexCall(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stream.Recv(); status.Code(err) != codes.DeadlineExceeded {
		t.Fatalf("stream: got %v, want DEADLINE_EXCEEDED from the cap", err)
	}
	<-seen
}

func TestMaxDeadlineCapsCallsWithout(t *testing.T) {
	seen := make(chan time.Time, 1)
	chain := []grpc.ServerOption{grpc.UnaryInterceptor(interceptor.UnaryServerMaxDeadline(time.Hour))}
	client := dial(t, serve(t, deadlineService(seen), chain...))
	if _, err := client.UnaryCall(context.Background(), &testgrpc.SimpleRequest{}); err != nil {
		t.Fatal(err)
	}
	if d := <-seen; d.IsZero() {
		t.Error("a call without a deadline got none under the cap")
	}
}

func TestMaxDeadlineKeepsShorter(t *testing.T) {
	seen := make(chan time.Time, 1)
	chain := []grpc.ServerOption{grpc.UnaryInterceptor(interceptor.UnaryServerMaxDeadline(time.Hour))}
	client := dial(t, serve(t, deadlineService(seen), chain...))
	ctx, cancel := context.WithTimeout(testContext(t), 20*time.Second)
	defer cancel()
	want, _ := ctx.Deadline()
	if _, err := client.UnaryCall(ctx, &testgrpc.SimpleRequest{}); err != nil {
		t.Fatal(err)
	}
	if d := <-seen; d.After(want.Add(time.Second)) || d.Before(want.Add(-time.Minute)) {
		t.Errorf("handler deadline %v, want the caller's %v", d, want)
	}
}

func TestClientTimeoutDefault(t *testing.T) {
	seen := make(chan time.Time, 1)
	opts, _ := interceptor.ClientChain(interceptor.ClientChainOptions{Timeout: 50 * time.Millisecond})
	client := dial(t, serve(t, deadlineService(seen)), opts...)
	if _, err := client.UnaryCall(context.Background(), &testgrpc.SimpleRequest{ResponseSize: 1}); status.Code(err) != codes.DeadlineExceeded {
		t.Fatalf("got %v, want DEADLINE_EXCEEDED from the default timeout", err)
	}
	if d := <-seen; d.IsZero() {
		t.Error("handler saw no deadline")
	}
	stream, err := client.FullDuplexCall(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stream.Recv(); status.Code(err) != codes.DeadlineExceeded {
		t.Fatalf("stream: got %v, want DEADLINE_EXCEEDED from the default timeout", err)
	}
	<-seen
}

func TestClientTimeoutKeepsCallers(t *testing.T) {
	seen := make(chan time.Time, 1)
	opts, _ := interceptor.ClientChain(interceptor.ClientChainOptions{Timeout: time.Millisecond})
	client := dial(t, serve(t, deadlineService(seen)), opts...)
	ctx := testContext(t)
	want, _ := ctx.Deadline()
	if _, err := client.UnaryCall(ctx, &testgrpc.SimpleRequest{}); err != nil {
		t.Fatalf("a call with its own deadline got %v", err)
	}
	if d := <-seen; d.Before(want.Add(-time.Minute)) {
		t.Errorf("handler deadline %v, want the caller's %v", d, want)
	}
}
