package interceptor

import (
	"context"
	"log/slog"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/logging"
	"google.golang.org/grpc"
)

// Access log lines are go-grpc-middleware's "finished call" records, with
// its field names: grpc.service, grpc.method, grpc.method_type, grpc.code,
// grpc.time_ms, peer.address, plus request_id when the request-id
// interceptor runs first. OK and client-side codes log at Info, server
// faults at Warn or Error.

// slogAdapter is the go-grpc-middleware logging.Logger over slog.
func slogAdapter(l *slog.Logger) logging.Logger {
	return logging.LoggerFunc(func(ctx context.Context, level logging.Level, msg string, fields ...any) {
		l.Log(ctx, slog.Level(level), msg, fields...)
	})
}

func accessLogOptions() []logging.Option {
	return []logging.Option{logging.WithLogOnEvents(logging.FinishCall)}
}

// UnaryServerAccessLog logs one line per finished call on l (slog.Default
// when nil), with the request id when the context carries one.
func UnaryServerAccessLog(l *slog.Logger) grpc.UnaryServerInterceptor {
	return logging.UnaryServerInterceptor(slogAdapter(withRequestIDs(l)), accessLogOptions()...)
}

// StreamServerAccessLog is UnaryServerAccessLog for streams.
func StreamServerAccessLog(l *slog.Logger) grpc.StreamServerInterceptor {
	return logging.StreamServerInterceptor(slogAdapter(withRequestIDs(l)), accessLogOptions()...)
}
