package interceptor_test

import (
	"context"
	"io"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rpckit/rpckit/interceptor"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/status"
)

// flakyService fails with the code in fail (OK: succeeds) and counts the
// calls that reached it.
type flakyService struct {
	fail  atomic.Uint32
	calls atomic.Int64
}

func (f *flakyService) testService() *testService {
	result := func() error {
		f.calls.Add(1)
		if c := codes.Code(f.fail.Load()); c != codes.OK {
			return status.Error(c, "flaky")
		}
		return nil
	}
	return &testService{
		unary: func(context.Context, *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
			if err := result(); err != nil {
				return nil, err
			}
			return &testgrpc.SimpleResponse{}, nil
		},
		duplex: func(testgrpc.TestService_FullDuplexCallServer) error { return result() },
	}
}

type transitions struct {
	mu  sync.Mutex
	log []string
}

func (tr *transitions) record(_, from, to string) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.log = append(tr.log, from+">"+to)
}

func (tr *transitions) get() []string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return append([]string(nil), tr.log...)
}

func TestBreakerOpensAndRecovers(t *testing.T) {
	flaky := &flakyService{}
	flaky.fail.Store(uint32(codes.Unavailable))
	tr := &transitions{}
	const openFor = 50 * time.Millisecond
	b := interceptor.NewBreaker(interceptor.BreakerOptions{Name: "up", Failures: 3, OpenFor: openFor, OnStateChange: tr.record})
	opts, _ := interceptor.ClientChain(interceptor.ClientChainOptions{Breaker: b})
	client := dial(t, serve(t, flaky.testService()), opts...)
	ctx := testContext(t)

	for range 3 {
		if _, err := client.UnaryCall(ctx, &testgrpc.SimpleRequest{}); status.Code(err) != codes.Unavailable {
			t.Fatalf("got %v, want the server's UNAVAILABLE", err)
		}
	}
	if b.State() != "open" {
		t.Fatalf("state %s after 3 failures, want open", b.State())
	}
	before := flaky.calls.Load()
	_, err := client.UnaryCall(ctx, &testgrpc.SimpleRequest{})
	if st := status.Convert(err); st.Code() != codes.Unavailable || flaky.calls.Load() != before {
		t.Fatalf("open breaker: got %v with %d calls reaching the server, want a local UNAVAILABLE", err, flaky.calls.Load()-before)
	}

	flaky.fail.Store(uint32(codes.OK))
	time.Sleep(openFor + 10*time.Millisecond) // let the open period lapse
	if _, err := client.UnaryCall(ctx, &testgrpc.SimpleRequest{}); err != nil {
		t.Fatalf("trial call after the open period: %v", err)
	}
	if b.State() != "closed" {
		t.Fatalf("state %s after a successful trial, want closed", b.State())
	}
	want := []string{"closed>open", "open>half-open", "half-open>closed"}
	if got := tr.get(); len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("transitions %v, want %v", got, want)
	}
}

func TestBreakerIgnoresCallerErrors(t *testing.T) {
	flaky := &flakyService{}
	flaky.fail.Store(uint32(codes.InvalidArgument))
	b := interceptor.NewBreaker(interceptor.BreakerOptions{Failures: 2})
	opts, _ := interceptor.ClientChain(interceptor.ClientChainOptions{Breaker: b})
	client := dial(t, serve(t, flaky.testService()), opts...)
	for range 5 {
		client.UnaryCall(testContext(t), &testgrpc.SimpleRequest{})
	}
	if b.State() != "closed" || flaky.calls.Load() != 5 {
		t.Errorf("state %s after INVALID_ARGUMENTs, %d calls through; want closed, 5", b.State(), flaky.calls.Load())
	}
}

func TestBreakerStreams(t *testing.T) {
	flaky := &flakyService{}
	flaky.fail.Store(uint32(codes.Internal))
	b := interceptor.NewBreaker(interceptor.BreakerOptions{Failures: 2, OpenFor: time.Hour})
	opts, _ := interceptor.ClientChain(interceptor.ClientChainOptions{Breaker: b})
	client := dial(t, serve(t, flaky.testService()), opts...)
	ctx := testContext(t)
	for range 2 {
		stream, err := client.FullDuplexCall(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := stream.Recv(); status.Code(err) != codes.Internal {
			t.Fatalf("got %v, want INTERNAL", err)
		}
	}
	if _, err := client.FullDuplexCall(ctx); status.Code(err) != codes.Unavailable {
		t.Fatalf("opening a stream through an open breaker: got %v, want UNAVAILABLE", err)
	}
}

// MethodBreakers: one method's failures open its breaker only.
func TestMethodBreakersAreApart(t *testing.T) {
	flaky := &flakyService{}
	flaky.fail.Store(uint32(codes.Unavailable))
	mb := interceptor.NewMethodBreakers(interceptor.BreakerOptions{Name: "up", Failures: 2, OpenFor: time.Minute})
	client := dial(t, serve(t, flaky.testService()),
		grpc.WithChainUnaryInterceptor(mb.UnaryClient()), grpc.WithChainStreamInterceptor(mb.StreamClient()))
	ctx := testContext(t)
	for range 2 {
		if _, err := client.UnaryCall(ctx, &testgrpc.SimpleRequest{}); status.Code(err) != codes.Unavailable {
			t.Fatalf("got %v, want the server's UNAVAILABLE", err)
		}
	}
	if got := mb.For("/grpc.testing.TestService/UnaryCall").State(); got != "open" {
		t.Fatalf("UnaryCall's breaker is %s, want open", got)
	}
	flaky.fail.Store(uint32(codes.OK))
	before := flaky.calls.Load()
	if _, err := client.UnaryCall(ctx, &testgrpc.SimpleRequest{}); status.Code(err) != codes.Unavailable || flaky.calls.Load() != before {
		t.Fatalf("open breaker: got %v, %d calls reaching the server", err, flaky.calls.Load()-before)
	}
	st, err := client.FullDuplexCall(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.CloseSend(); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Recv(); err != io.EOF {
		t.Fatalf("FullDuplexCall: got %v, want its own closed breaker to let it through", err)
	}
	if got := mb.For("/grpc.testing.TestService/FullDuplexCall").State(); got != "closed" {
		t.Errorf("FullDuplexCall's breaker is %s, want closed", got)
	}
}
