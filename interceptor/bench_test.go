package interceptor_test

import (
	"context"
	"io"
	"log/slog"
	"syscall"
	"testing"
	"time"

	"github.com/rpckit/rpckit/interceptor"
	"google.golang.org/grpc"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
)

// BenchmarkChainCost compares unary echo throughput over loopback through
// bare grpc-go and through the standard chains, in the same run, with
// parallel clients: "server" is the full server chain (request-id,
// metrics, access log to a JSON handler, recovery, deadline cap),
// "client" the full client chain (request-id, default timeout, metrics,
// breaker), "chain" both, and "chain-no-access-log" both without the
// per-call log line. calls/s is throughput; cpu-ns/call is the
// process's CPU time per call, client and server together, which other
// load on a shared machine disturbs less.
func BenchmarkChainCost(b *testing.B) {
	echo := &testService{unary: func(_ context.Context, req *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
		return &testgrpc.SimpleResponse{Payload: req.GetPayload()}, nil
	}}
	variants := []struct {
		name           string
		server, client bool
		noLog          bool
	}{
		{name: "bare"}, {name: "server", server: true}, {name: "client", client: true},
		{name: "chain", server: true, client: true},
		{name: "chain-no-access-log", server: true, client: true, noLog: true},
	}
	for _, v := range variants {
		b.Run(v.name, func(b *testing.B) {
			m := interceptor.NewMetrics(interceptor.MetricsOptions{})
			var sopts []grpc.ServerOption
			var copts []grpc.DialOption
			if v.server {
				sopts = benchServerChain(m, v.noLog)
			}
			if v.client {
				copts = benchClientChain(b, m)
			}
			benchEcho(b, dial(b, serve(b, echo, sopts...), copts...))
		})
	}
}

func benchServerChain(m *interceptor.Metrics, noLog bool) []grpc.ServerOption {
	logger := slog.New(slog.NewJSONHandler(io.Discard, nil))
	return interceptor.ServerChain(interceptor.ServerChainOptions{
		Logger: logger, Metrics: m, MaxDeadline: time.Minute, NoAccessLog: noLog,
	})
}

func benchClientChain(b *testing.B, m *interceptor.Metrics) []grpc.DialOption {
	opts, err := interceptor.ClientChain(interceptor.ClientChainOptions{
		Timeout: time.Minute, Metrics: m, Breaker: interceptor.NewBreaker(interceptor.BreakerOptions{}),
	})
	if err != nil {
		b.Fatal(err)
	}
	return opts
}

func benchEcho(b *testing.B, client testgrpc.TestServiceClient) {
	req := &testgrpc.SimpleRequest{Payload: &testgrpc.Payload{Body: make([]byte, 64)}}
	ctx := context.Background()
	if _, err := client.UnaryCall(ctx, req); err != nil { // connect before timing
		b.Fatal(err)
	}
	b.SetParallelism(8)
	b.ReportAllocs()
	cpu0 := cpuTime()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := client.UnaryCall(ctx, req); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/call")
}

// cpuTime is the process's user and system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
