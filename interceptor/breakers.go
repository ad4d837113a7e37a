package interceptor

import (
	"context"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/grpc"
)

// MethodBreakers keeps a circuit breaker per method of one upstream, made
// on the method's first call with the same options, so that a method
// that fails does not shut off the others (nor the server reflection a
// gateway reloads its routes with).
type MethodBreakers struct {
	opts     BreakerOptions
	breakers sync.Map // full method name -> *Breaker
}

// NewMethodBreakers returns breakers per method; each is named
// opts.Name plus its method ("127.0.0.1:50051/pkg.Service/Method").
func NewMethodBreakers(opts BreakerOptions) *MethodBreakers {
	return &MethodBreakers{opts: opts}
}

// For returns the breaker of a method ("/pkg.Service/Method").
func (mb *MethodBreakers) For(method string) *Breaker {
	if b, ok := mb.breakers.Load(method); ok {
		return b.(*Breaker)
	}
	opts := mb.opts
	opts.Name += method
	b, _ := mb.breakers.LoadOrStore(method, NewBreaker(opts))
	return b.(*Breaker)
}

// UnaryClient guards unary calls, each with its method's breaker.
func (mb *MethodBreakers) UnaryClient() grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		return mb.For(method).unary(ctx, method, req, reply, cc, invoker, opts...)
	}
}

// StreamClient guards streams, each with its method's breaker.
func (mb *MethodBreakers) StreamClient() grpc.StreamClientInterceptor {
	return func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
		return mb.For(method).stream(ctx, desc, cc, method, streamer, opts...)
	}
}

// WatchBreakers exports the state of each method's breaker as
// rpckit_client_breaker_state{upstream, grpc_service, grpc_method}: 0
// closed, 1 open, 2 half-open, read when the metrics are (so an open
// breaker whose time is over reads half-open without a call).
func (m *Metrics) WatchBreakers(upstream string, mb *MethodBreakers) {
	// Register fails only for breakers watched twice, which are there
	// already.
	_ = m.reg.Register(&breakerStates{upstream: upstream, mb: mb, desc: prometheus.NewDesc(
		"rpckit_client_breaker_state",
		"State of the client's circuit breaker per upstream and method: 0 closed, 1 open, 2 half-open.",
		[]string{"grpc_service", "grpc_method"}, prometheus.Labels{"upstream": upstream})})
}

// breakerStates collects the breakers' states.
type breakerStates struct {
	upstream string
	mb       *MethodBreakers
	desc     *prometheus.Desc
}

func (s *breakerStates) Describe(ch chan<- *prometheus.Desc) { ch <- s.desc }

func (s *breakerStates) Collect(ch chan<- prometheus.Metric) {
	s.mb.breakers.Range(func(k, v any) bool {
		service, method := splitFirst(k.(string))
		ch <- prometheus.MustNewConstMetric(s.desc, prometheus.GaugeValue,
			breakerStateValue(v.(*Breaker).State()), service, method)
		return true
	})
}

func breakerStateValue(state string) float64 {
	switch state {
	case "open":
		return 1
	case "half-open":
		return 2
	}
	return 0
}
