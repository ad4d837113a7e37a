package interceptor

import (
	"log/slog"
	"time"

	"google.golang.org/grpc"
)

// ServerChainOptions configures the standard server chain. The zero value
// gives request ids, an access log and panic recovery on slog.Default.
type ServerChainOptions struct {
	// Logger receives the access log and recovered panics; nil means
	// slog.Default. Its handler is wrapped with NewLogHandler.
	Logger *slog.Logger
	// Metrics, when set, counts and times every call.
	Metrics *Metrics
	// MaxDeadline, when positive, caps every call's deadline.
	MaxDeadline time.Duration
	// Tracing turns on OpenTelemetry tracing with the global providers.
	Tracing bool
	// NoAccessLog turns the per-call log line off.
	NoAccessLog bool
	// Unary and Stream are more interceptors, run inside the standard
	// ones, just before the handler.
	Unary  []grpc.UnaryServerInterceptor
	Stream []grpc.StreamServerInterceptor
}

// ServerChain returns the server options that install the standard chain.
// From the outside in: request-id, metrics, access log, recovery, deadline
// cap, then opts.Unary/Stream. Request ids come first so every later log
// line has them; recovery sits inside metrics and the access log so a
// panic is counted and logged as the INTERNAL it becomes.
func ServerChain(opts ServerChainOptions) []grpc.ServerOption {
	l := withRequestIDs(opts.Logger)
	unary := []grpc.UnaryServerInterceptor{UnaryServerRequestID()}
	stream := []grpc.StreamServerInterceptor{StreamServerRequestID()}
	if opts.Metrics != nil {
		unary = append(unary, opts.Metrics.UnaryServer())
		stream = append(stream, opts.Metrics.StreamServer())
	}
	if !opts.NoAccessLog {
		unary = append(unary, UnaryServerAccessLog(l))
		stream = append(stream, StreamServerAccessLog(l))
	}
	unary = append(unary, UnaryServerRecovery(l))
	stream = append(stream, StreamServerRecovery(l))
	if opts.MaxDeadline > 0 {
		unary = append(unary, UnaryServerMaxDeadline(opts.MaxDeadline))
		stream = append(stream, StreamServerMaxDeadline(opts.MaxDeadline))
	}
	out := []grpc.ServerOption{
		grpc.ChainUnaryInterceptor(append(unary, opts.Unary...)...),
		grpc.ChainStreamInterceptor(append(stream, opts.Stream...)...),
	}
	if opts.Tracing {
		out = append(out, grpc.StatsHandler(TracingServerHandler()))
	}
	return out
}

// ClientChainOptions configures the standard client chain. The zero value
// propagates request ids and nothing else.
type ClientChainOptions struct {
	// Timeout, when positive, is the deadline of calls that have none.
	Timeout time.Duration
	// Retry, when set, becomes the default service config.
	Retry *RetryPolicy
	// Breaker, when set, guards every call.
	Breaker *Breaker
	// Metrics, when set, counts and times every call.
	Metrics *Metrics
	// Tracing turns on OpenTelemetry tracing with the global providers.
	Tracing bool
}

// ClientChain returns the dial options that install the standard client
// chain. From the outside in: request-id, timeout, metrics, breaker; grpc-go
// retries below all of them, so the breaker and the metrics see a call's
// final outcome after its retries.
func ClientChain(opts ClientChainOptions) ([]grpc.DialOption, error) {
	unary := []grpc.UnaryClientInterceptor{UnaryClientRequestID()}
	stream := []grpc.StreamClientInterceptor{StreamClientRequestID()}
	if opts.Timeout > 0 {
		unary = append(unary, UnaryClientTimeout(opts.Timeout))
		stream = append(stream, StreamClientTimeout(opts.Timeout))
	}
	if opts.Metrics != nil {
		unary = append(unary, opts.Metrics.UnaryClient())
		stream = append(stream, opts.Metrics.StreamClient())
	}
	if opts.Breaker != nil {
		unary = append(unary, opts.Breaker.UnaryClient())
		stream = append(stream, opts.Breaker.StreamClient())
	}
	out := []grpc.DialOption{
		grpc.WithChainUnaryInterceptor(unary...),
		grpc.WithChainStreamInterceptor(stream...),
	}
	if opts.Retry != nil {
		sc, err := ServiceConfig(*opts.Retry)
		if err != nil {
			return nil, err
		}
		out = append(out, grpc.WithDefaultServiceConfig(sc))
	}
	if opts.Tracing {
		out = append(out, grpc.WithStatsHandler(TracingClientHandler()))
	}
	return out, nil
}
