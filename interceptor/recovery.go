package interceptor

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/recovery"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// recoveryHandler logs the panic with its stack and turns it into INTERNAL.
// It runs inside the deferred recover, so the stack is the panicking one.
func recoveryHandler(l *slog.Logger) recovery.Option {
	return recovery.WithRecoveryHandlerContext(func(ctx context.Context, p any) error {
		l.ErrorContext(ctx, "panic recovered",
			slog.String("panic", fmt.Sprint(p)),
			slog.String("stack", string(debug.Stack())))
		return status.Error(codes.Internal, "internal error")
	})
}

// UnaryServerRecovery turns a panicking handler into an INTERNAL status and
// logs the panic and its stack on l (slog.Default when nil).
func UnaryServerRecovery(l *slog.Logger) grpc.UnaryServerInterceptor {
	return recovery.UnaryServerInterceptor(recoveryHandler(withRequestIDs(l)))
}

// StreamServerRecovery is UnaryServerRecovery for streams.
func StreamServerRecovery(l *slog.Logger) grpc.StreamServerInterceptor {
	return recovery.StreamServerInterceptor(recoveryHandler(withRequestIDs(l)))
}
