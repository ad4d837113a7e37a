package interceptor

import (
	"context"
	"log/slog"
)

// RequestIDAttr is the log attribute key of the request id.
const RequestIDAttr = "request_id"

// logHandler adds the request id of the record's context to every record.
type logHandler struct {
	h slog.Handler
}

// NewLogHandler wraps h so that every record logged with a context that
// carries a request id gets a request_id attribute: log with
// logger.InfoContext(ctx, ...) inside a handler and the line carries the id.
// Wrapping twice adds the attribute once.
func NewLogHandler(h slog.Handler) slog.Handler {
	if _, ok := h.(*logHandler); ok {
		return h
	}
	return &logHandler{h: h}
}

// withRequestIDs returns l with its handler wrapped by NewLogHandler, or
// slog.Default's when l is nil.
func withRequestIDs(l *slog.Logger) *slog.Logger {
	if l == nil {
		l = slog.Default()
	}
	if _, ok := l.Handler().(*logHandler); ok {
		return l
	}
	return slog.New(NewLogHandler(l.Handler()))
}

func (l *logHandler) Enabled(ctx context.Context, level slog.Level) bool {
	return l.h.Enabled(ctx, level)
}

func (l *logHandler) Handle(ctx context.Context, r slog.Record) error {
	if id, ok := RequestIDFromContext(ctx); ok {
		r.AddAttrs(slog.String(RequestIDAttr, id))
	}
	return l.h.Handle(ctx, r)
}

func (l *logHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &logHandler{h: l.h.WithAttrs(attrs)}
}

func (l *logHandler) WithGroup(name string) slog.Handler {
	return &logHandler{h: l.h.WithGroup(name)}
}
