package interceptor

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/grpc"
	"google.golang.org/grpc/stats"
)

// policyMetrics are the client policies' own metrics, registered on first
// use so that a server's Metrics export none of them:
//
//	rpckit_client_retries_total{grpc_service, grpc_method}
//	rpckit_client_breaker_state{upstream, grpc_service, grpc_method}
type policyMetrics struct {
	once    sync.Once
	retries *prometheus.CounterVec
}

func (m *Metrics) retries() *prometheus.CounterVec {
	m.policy.once.Do(func() {
		m.policy.retries = prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "rpckit_client_retries_total",
			Help: "Attempts of client calls beyond their first: grpc-go's retries and hedges.",
		}, []string{"grpc_service", "grpc_method"})
		// MustRegister cannot fail: the name is rpckit's own and the once
		// registers it once.
		m.reg.MustRegister(m.policy.retries)
	})
	return m.policy.retries
}

// ClientAttempts returns the dial options that count, in
// rpckit_client_retries_total, every attempt of a call after its first:
// the retries and hedges grpc-go makes from the service config, and its
// transparent retries. An interceptor gives each call a counter that a
// stats handler, which grpc-go tells of every attempt, moves.
func (m *Metrics) ClientAttempts() []grpc.DialOption {
	vec := m.retries()
	return []grpc.DialOption{
		grpc.WithChainUnaryInterceptor(func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
			return invoker(withAttempts(ctx), method, req, reply, cc, opts...)
		}),
		grpc.WithChainStreamInterceptor(func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
			return streamer(withAttempts(ctx), desc, cc, method, opts...)
		}),
		grpc.WithStatsHandler(attemptCounter{vec}),
	}
}

type attemptsKey struct{}

func withAttempts(ctx context.Context) context.Context {
	return context.WithValue(ctx, attemptsKey{}, new(atomic.Int32))
}

// attemptCounter counts the attempts after the first of each call.
type attemptCounter struct{ vec *prometheus.CounterVec }

type methodNameKey struct{}

func (a attemptCounter) TagRPC(ctx context.Context, info *stats.RPCTagInfo) context.Context {
	return context.WithValue(ctx, methodNameKey{}, info.FullMethodName)
}

func (a attemptCounter) HandleRPC(ctx context.Context, s stats.RPCStats) {
	if b, ok := s.(*stats.Begin); !ok || !b.Client {
		return
	}
	n, ok := ctx.Value(attemptsKey{}).(*atomic.Int32)
	if !ok || n.Add(1) == 1 {
		return
	}
	full, _ := ctx.Value(methodNameKey{}).(string)
	service, method := splitFirst(full)
	a.vec.WithLabelValues(service, method).Inc()
}

func (attemptCounter) TagConn(ctx context.Context, _ *stats.ConnTagInfo) context.Context {
	return ctx
}

func (attemptCounter) HandleConn(context.Context, stats.ConnStats) {}
