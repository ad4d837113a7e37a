package interceptor_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/rpckit/rpckit/interceptor"
	"github.com/rpckit/rpckit/interceptor/interceptortest"
	"google.golang.org/grpc"
)

// TestStandardChainKeepsSemantics runs the interceptortest battery on the
// full server and client chains.
func TestStandardChainKeepsSemantics(t *testing.T) {
	logger := slog.New(slog.NewJSONHandler(io.Discard, nil))
	m := interceptor.NewMetrics(interceptor.MetricsOptions{})
	server := interceptor.ServerChain(interceptor.ServerChainOptions{
		Logger: logger, Metrics: m, MaxDeadline: time.Minute, Tracing: true,
	})
	client, err := interceptor.ClientChain(interceptor.ClientChainOptions{
		Timeout: time.Minute, Metrics: m, Tracing: true,
		Breaker: interceptor.NewBreaker(interceptor.BreakerOptions{Failures: 1000}),
		Retry:   &interceptor.RetryPolicy{},
	})
	if err != nil {
		t.Fatal(err)
	}
	interceptortest.Run(t, interceptortest.Chain{ServerOptions: server, DialOptions: client, Recovers: true})
}

// TestBareChain: the battery passes with no chain at all.
func TestBareChain(t *testing.T) {
	interceptortest.Run(t, interceptortest.Chain{})
}

// TestCheckCatchesBrokenChain: a chain that rewrites status codes fails.
func TestCheckCatchesBrokenChain(t *testing.T) {
	broken := func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		resp, err := h(ctx, req)
		if err != nil {
			return nil, io.ErrUnexpectedEOF // loses the status
		}
		return resp, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err := interceptortest.Check(ctx, interceptortest.Chain{ServerOptions: []grpc.ServerOption{grpc.UnaryInterceptor(broken)}})
	if err == nil {
		t.Fatal("a chain that loses status codes passed")
	}
}
