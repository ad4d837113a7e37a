package interceptor

import (
	"context"
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
	// AccessLogger, when set, receives the access log instead of Logger
	// (a file of its own, say); its handler is wrapped the same way.
	AccessLogger *slog.Logger
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
//
// For unary calls the standard ones run as a single interceptor, which does
// what chaining them would do without a closure and a call frame per link
// on every call; TestUnaryChainMatchesLinks holds the two to the same
// behaviour.
func ServerChain(opts ServerChainOptions) []grpc.ServerOption {
	l := withRequestIDs(opts.Logger)
	stream := []grpc.StreamServerInterceptor{StreamServerRequestID()}
	if opts.Metrics != nil {
		stream = append(stream, opts.Metrics.StreamServer())
	}
	if !opts.NoAccessLog {
		stream = append(stream, StreamServerAccessLog(opts.accessLogger(l)))
	}
	stream = append(stream, StreamServerRecovery(l))
	if opts.MaxDeadline > 0 {
		stream = append(stream, StreamServerMaxDeadline(opts.MaxDeadline))
	}
	out := []grpc.ServerOption{
		grpc.ChainUnaryInterceptor(append([]grpc.UnaryServerInterceptor{unaryChainOf(opts, l)}, opts.Unary...)...),
		grpc.ChainStreamInterceptor(append(stream, opts.Stream...)...),
	}
	if opts.Tracing {
		out = append(out, grpc.StatsHandler(TracingServerHandler()))
	}
	return out
}

// accessLogger is the logger of the access log: AccessLogger, or l.
func (o ServerChainOptions) accessLogger(l *slog.Logger) *slog.Logger {
	if o.AccessLogger != nil {
		return o.AccessLogger
	}
	return l
}

// unaryChain is the standard unary server chain as one interceptor:
// request-id, metrics, access log, recovery and deadline cap, in that
// order from the outside in, as ServerChain lists them.
type unaryChain struct {
	metrics     *Metrics   // nil: no metrics
	log         *accessLog // nil: no access log
	recovery    grpc.UnaryServerInterceptor
	maxDeadline time.Duration
}

// UnaryServerChain returns the standard unary links of ServerChain as one
// interceptor, for servers that chain interceptors of their own around
// it. opts.Unary, opts.Stream and opts.Tracing play no part in it.
func UnaryServerChain(opts ServerChainOptions) grpc.UnaryServerInterceptor {
	return unaryChainOf(opts, withRequestIDs(opts.Logger))
}

func unaryChainOf(opts ServerChainOptions, l *slog.Logger) grpc.UnaryServerInterceptor {
	c := &unaryChain{metrics: opts.Metrics, recovery: UnaryServerRecovery(l), maxDeadline: opts.MaxDeadline}
	if !opts.NoAccessLog {
		c.log = newAccessLog(opts.accessLogger(l))
	}
	return c.intercept
}

// intercept reads the clock twice, for the metrics, the log line and the
// deadline cap all: on some virtual machines a clock read costs 100ns.
// The deadline cap sits outside recovery here, which changes nothing: it
// cannot panic.
func (c *unaryChain) intercept(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	ctx, rc := incomingRequestID(ctx)
	// SetHeader fails only once headers are sent, which no handler has
	// done yet.
	_ = grpc.SetHeader(ctx, rc.headerMD())
	var s *methodSeries
	if c.metrics != nil {
		s = c.metrics.server.series(typeUnary, info.FullMethod)
		s.started.Inc()
		s.received.Inc()
	}
	start := time.Now()
	hctx, capped := capDeadline(ctx, c.maxDeadline, start)
	resp, err := c.recovery(hctx, req, info, handler)
	end := time.Now()
	capped.stop(end)
	st := statusOf(err)
	if s != nil {
		if err == nil {
			s.sent.Inc()
		}
		s.finish(st.Code(), end.Sub(start))
	}
	if c.log != nil {
		c.log.call(ctx, info.FullMethod, st, start, end)
	}
	return resp, err
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
