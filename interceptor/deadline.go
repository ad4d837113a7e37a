package interceptor

import (
	"context"
	"time"

	"google.golang.org/grpc"
)

// capDeadline bounds ctx's deadline to max from now. It returns ctx
// unchanged when max is not positive or the deadline is already sooner.
func capDeadline(ctx context.Context, max time.Duration) (context.Context, context.CancelFunc) {
	if max <= 0 {
		return ctx, func() {}
	}
	if d, ok := ctx.Deadline(); ok && time.Until(d) <= max {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, max)
}

// UnaryServerMaxDeadline caps the time a handler gets: a call with no
// deadline, or one further away than max, runs with max. The caller sees
// DEADLINE_EXCEEDED from handlers that honour their context. A max of zero
// or less imposes nothing.
func UnaryServerMaxDeadline(max time.Duration) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		ctx, cancel := capDeadline(ctx, max)
		defer cancel()
		return handler(ctx, req)
	}
}

// StreamServerMaxDeadline is UnaryServerMaxDeadline for streams: the cap
// covers the whole stream.
func StreamServerMaxDeadline(max time.Duration) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		ctx, cancel := capDeadline(ss.Context(), max)
		defer cancel()
		return handler(srv, withContext(ss, ctx))
	}
}
