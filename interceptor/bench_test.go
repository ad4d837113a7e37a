package interceptor_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/net/http2/hpack"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"

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
	echo := echoService()
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

// BenchmarkChainCostPaired measures the same as BenchmarkChainCost's bare
// and server (or chain) variants, but in pairs: each round runs 16 callers
// for 100ms against a bare server, then for 100ms against one with the
// chain, so that changes in the machine's load over the run fall on both
// alike. It reports both throughputs and chain/bare, their ratio over all
// rounds. -benchtime Nx sets the number of rounds.
//
// The links variants put one interceptor of the server chain alone in
// front of the echo service, measured the same way, to show what each
// costs of the whole: "request-id" (whose response header grpc-go encodes
// and the client decodes on every call), "access-log" (one line to a JSON
// handler), "metrics", "header" (a constant response header of the same
// size, set as request-id sets its own: what any response metadata costs
// in grpc-go) and "fresh-header" (the same with a new random value on
// every call, as a request id has: what HPACK's indexing of a value never
// seen before adds, on both ends of the connection).
func BenchmarkChainCostPaired(b *testing.B) {
	echo := echoService()
	logger := slog.New(slog.NewJSONHandler(io.Discard, nil))
	constHeader := metadata.Pairs(interceptor.RequestIDHeader, interceptor.NewRequestID())
	variants := []struct {
		name   string
		client bool
		server func(m *interceptor.Metrics) []grpc.ServerOption
	}{
		{name: "server", server: func(m *interceptor.Metrics) []grpc.ServerOption { return benchServerChain(m, false) }},
		{name: "chain", client: true, server: func(m *interceptor.Metrics) []grpc.ServerOption { return benchServerChain(m, false) }},
		{name: "links/request-id", server: func(*interceptor.Metrics) []grpc.ServerOption {
			return []grpc.ServerOption{grpc.UnaryInterceptor(interceptor.UnaryServerRequestID())}
		}},
		{name: "links/access-log", server: func(*interceptor.Metrics) []grpc.ServerOption {
			return []grpc.ServerOption{grpc.UnaryInterceptor(interceptor.UnaryServerAccessLog(logger))}
		}},
		{name: "links/metrics", server: func(m *interceptor.Metrics) []grpc.ServerOption {
			return []grpc.ServerOption{grpc.UnaryInterceptor(m.UnaryServer())}
		}},
		{name: "links/header", server: headerLink(func() metadata.MD { return constHeader })},
		{name: "links/fresh-header", server: headerLink(func() metadata.MD {
			return metadata.Pairs(interceptor.RequestIDHeader, interceptor.NewRequestID())
		})},
	}
	for _, v := range variants {
		b.Run(v.name, func(b *testing.B) {
			m := interceptor.NewMetrics(interceptor.MetricsOptions{})
			bare := dial(b, serve(b, echo))
			var copts []grpc.DialOption
			if v.client {
				copts = benchClientChain(b, m)
			}
			chained := dial(b, serve(b, echo, v.server(m)...), copts...)
			var bareCalls, chainCalls int
			var bareTime, chainTime time.Duration
			for b.Loop() {
				n, d := callFor(b, bare, 100*time.Millisecond)
				bareCalls, bareTime = bareCalls+n, bareTime+d
				n, d = callFor(b, chained, 100*time.Millisecond)
				chainCalls, chainTime = chainCalls+n, chainTime+d
			}
			bareRate := float64(bareCalls) / bareTime.Seconds()
			chainRate := float64(chainCalls) / chainTime.Seconds()
			b.ReportMetric(bareRate, "bare-calls/s")
			b.ReportMetric(chainRate, "chain-calls/s")
			b.ReportMetric(chainRate/bareRate, "chain/bare")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// callFor makes unary echo calls from 16 goroutines for d and returns how
// many finished and the time they took.
func callFor(b *testing.B, client testgrpc.TestServiceClient, d time.Duration) (int, time.Duration) {
	req := &testgrpc.SimpleRequest{Payload: &testgrpc.Payload{Body: make([]byte, 64)}}
	ctx := context.Background()
	if _, err := client.UnaryCall(ctx, req); err != nil { // connected and warm
		b.Fatal(err)
	}
	var total atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	stop := start.Add(d)
	for range 16 {
		wg.Go(func() {
			n := int64(0)
			for time.Now().Before(stop) {
				if _, err := client.UnaryCall(ctx, req); err != nil {
					b.Error(err)
					return
				}
				n++
			}
			total.Add(n)
		})
	}
	wg.Wait()
	return int(total.Load()), time.Since(start)
}

// headerLink is a server whose only interceptor sets the response header
// md gives, as UnaryServerRequestID sets its own.
func headerLink(md func() metadata.MD) func(*interceptor.Metrics) []grpc.ServerOption {
	return func(*interceptor.Metrics) []grpc.ServerOption {
		return []grpc.ServerOption{grpc.UnaryInterceptor(func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
			if err := grpc.SetHeader(ctx, md()); err != nil {
				return nil, err
			}
			return h(ctx, req)
		})}
	}
}

// echoService answers UnaryCall with the request's payload.
func echoService() *testService {
	return &testService{unary: func(_ context.Context, req *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
		return &testgrpc.SimpleResponse{Payload: req.GetPayload()}, nil
	}}
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

// BenchmarkServerInterceptors times each server interceptor of the
// standard chain alone, and the whole chain (as ServerChain runs it, and
// linked one by one as grpc.ChainUnaryInterceptor would), around a handler
// that does nothing, without a network: what each adds to every call.
func BenchmarkServerInterceptors(b *testing.B) {
	m := interceptor.NewMetrics(interceptor.MetricsOptions{NoRuntime: true})
	logger := slog.New(slog.NewJSONHandler(io.Discard, nil))
	cases := []struct {
		name string
		ic   grpc.UnaryServerInterceptor
	}{
		{"request-id", interceptor.UnaryServerRequestID()},
		{"metrics", m.UnaryServer()},
		{"access-log", interceptor.UnaryServerAccessLog(logger)},
		{"recovery", interceptor.UnaryServerRecovery(logger)},
		{"deadline", interceptor.UnaryServerMaxDeadline(time.Minute)},
	}
	info := &grpc.UnaryServerInfo{FullMethod: "/grpc.testing.TestService/UnaryCall"}
	handler := func(ctx context.Context, req any) (any, error) { return req, nil }
	run := func(b *testing.B, ic grpc.UnaryServerInterceptor) {
		ctx := benchServerContext()
		b.ReportAllocs()
		for b.Loop() {
			if _, err := ic(ctx, nil, info, handler); err != nil {
				b.Fatal(err)
			}
		}
	}
	all := make([]grpc.UnaryServerInterceptor, len(cases))
	for i, c := range cases {
		all[i] = c.ic
		b.Run(c.name, func(b *testing.B) { run(b, c.ic) })
	}
	b.Run("linked", func(b *testing.B) { run(b, chainUnary(all)) })
	b.Run("chain", func(b *testing.B) {
		run(b, interceptor.UnaryServerChain(interceptor.ServerChainOptions{Logger: logger, Metrics: m, MaxDeadline: time.Minute}))
	})
}

// chainUnary nests interceptors as grpc.ChainUnaryInterceptor does.
func chainUnary(ics []grpc.UnaryServerInterceptor) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		for i := len(ics) - 1; i >= 0; i-- {
			ic, next := ics[i], h
			h = func(ctx context.Context, req any) (any, error) { return ic(ctx, req, info, next) }
		}
		return h(ctx, req)
	}
}

// benchServerContext is what grpc-go gives a unary handler: incoming
// metadata, the peer, and a transport stream that takes headers.
func benchServerContext() context.Context {
	ctx := metadata.NewIncomingContext(context.Background(), metadata.Pairs("user-agent", "bench"))
	ctx = peer.NewContext(ctx, &peer.Peer{Addr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 40000}})
	return grpc.NewContextWithServerTransportStream(ctx, &headerSink{})
}

type headerSink struct{ md metadata.MD }

func (h *headerSink) Method() string                  { return "/grpc.testing.TestService/UnaryCall" }
func (h *headerSink) SetHeader(md metadata.MD) error  { h.md = md; return nil }
func (h *headerSink) SendHeader(md metadata.MD) error { return nil }
func (h *headerSink) SetTrailer(md metadata.MD) error { return nil }

// BenchmarkResponseHeaderHPACK encodes and decodes the header block of a
// unary response as grpc-go's two ends of one connection do, with
// golang.org/x/net's HPACK encoder and decoder: with no metadata, with an
// x-request-id that never changes, and with a new one on every call, which
// HPACK must add to both ends' tables (and evict an old entry from them)
// every time. The ids are made outside the timing: 1,024 of them, taken
// in turn, so that each is gone from the tables (4 KB, about 50 such
// entries) before it comes again.
func BenchmarkResponseHeaderHPACK(b *testing.B) {
	for _, v := range []struct {
		name string
		id   func() string
	}{
		{"none", nil},
		{"constant-id", func() string { return "0123456789abcdef0123456789abcdef" }},
		{"fresh-id", interceptor.NewRequestID},
	} {
		b.Run(v.name, func(b *testing.B) {
			var block bytes.Buffer
			enc := hpack.NewEncoder(&block)
			fields := 0
			dec := hpack.NewDecoder(4096, func(hpack.HeaderField) { fields++ })
			ids := make([]string, 1024)
			for i := range ids {
				if v.id != nil {
					ids[i] = v.id()
				}
			}
			i := 0
			for b.Loop() {
				block.Reset()
				enc.WriteField(hpack.HeaderField{Name: ":status", Value: "200"})
				enc.WriteField(hpack.HeaderField{Name: "content-type", Value: "application/grpc"})
				if v.id != nil {
					enc.WriteField(hpack.HeaderField{Name: interceptor.RequestIDHeader, Value: ids[i%len(ids)]})
				}
				if _, err := dec.Write(block.Bytes()); err != nil {
					b.Fatal(err)
				}
				if err := dec.Close(); err != nil {
					b.Fatal(err)
				}
				i++
			}
			want := 2 * b.N
			if v.id != nil {
				want = 3 * b.N
			}
			if fields != want {
				b.Fatalf("decoded %d fields in %d blocks, want %d", fields, b.N, want)
			}
		})
	}
}
