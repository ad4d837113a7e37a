package server_test

import (
	"context"
	"testing"
	"time"

	"github.com/rpckit/rpckit/interceptor"
	"github.com/rpckit/rpckit/server"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/interop"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
)

// TestInterop runs grpc-go's interop client cases against grpc-go's
// interop TestService served by server.New, through the full server chain
// and the standard client chain: the runtime must not change gRPC
// semantics. The cases fail the process (grpclog Fatal) on a violation.
func TestInterop(t *testing.T) {
	opts := server.Options{MaxDeadline: time.Minute, Tracing: true}
	r := start(t, opts, func(s *server.Server) { testgrpc.RegisterTestServiceServer(s, interop.NewTestServer()) })
	chain, err := interceptor.ClientChain(interceptor.ClientChainOptions{
		Timeout: time.Minute, Retry: &interceptor.RetryPolicy{},
		Breaker: interceptor.NewBreaker(interceptor.BreakerOptions{Failures: 1000}),
		Metrics: interceptor.NewMetrics(interceptor.MetricsOptions{NoRuntime: true}),
	})
	if err != nil {
		t.Fatal(err)
	}
	dialOpts := append([]grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}, chain...)
	conn, err := grpc.NewClient(r.srv.Addr().String(), dialOpts...)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	tc := testgrpc.NewTestServiceClient(conn)
	cases := []struct {
		name string
		run  func(context.Context)
	}{
		{"empty_unary", func(ctx context.Context) { interop.DoEmptyUnaryCall(ctx, tc) }},
		{"large_unary", func(ctx context.Context) { interop.DoLargeUnaryCall(ctx, tc) }},
		{"client_streaming", func(ctx context.Context) { interop.DoClientStreaming(ctx, tc) }},
		{"server_streaming", func(ctx context.Context) { interop.DoServerStreaming(ctx, tc) }},
		{"ping_pong", func(ctx context.Context) { interop.DoPingPong(ctx, tc) }},
		{"empty_stream", func(ctx context.Context) { interop.DoEmptyStream(ctx, tc) }},
		{"custom_metadata", func(ctx context.Context) { interop.DoCustomMetadata(ctx, tc) }},
		{"status_code_and_message", func(ctx context.Context) { interop.DoStatusCodeAndMessage(ctx, tc) }},
		{"special_status_message", func(ctx context.Context) { interop.DoSpecialStatusMessage(ctx, tc) }},
		{"timeout_on_sleeping_server", func(ctx context.Context) { interop.DoTimeoutOnSleepingServer(ctx, tc) }},
		{"cancel_after_begin", func(ctx context.Context) { interop.DoCancelAfterBegin(ctx, tc) }},
		{"cancel_after_first_response", func(ctx context.Context) { interop.DoCancelAfterFirstResponse(ctx, tc) }},
		{"unimplemented_method", func(ctx context.Context) { interop.DoUnimplementedMethod(ctx, conn) }},
		{"unimplemented_service", func(ctx context.Context) {
			interop.DoUnimplementedService(ctx, testgrpc.NewUnimplementedServiceClient(conn))
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { c.run(testContext(t)) })
	}
}
