package interceptor

import (
	"context"
	"log/slog"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
)

// Access log lines are "finished call" records with go-grpc-middleware's
// field names: grpc.service, grpc.method, grpc.code, peer.address, plus
// grpc.duration (a slog duration: nanoseconds in JSON, "1.2ms" in text),
// request_id when the request-id interceptor runs first, and grpc.error
// for failures. They are built here rather than by go-grpc-middleware's
// logging interceptor, which measured several microseconds per call (it
// formats start times and deadlines and merges field lists on every call);
// this one does nothing for a level the handler drops and writes one
// record of six attributes otherwise. Floats are avoided: slog's JSON
// handler encodes them through encoding/json.

// accessLevel maps a code to its level: faults of the server at Error,
// overload and timeouts at Warn, the rest (OK and the caller's mistakes)
// at Info. It follows go-grpc-middleware's DefaultServerCodeToLevel.
func accessLevel(c codes.Code) slog.Level {
	switch c {
	case codes.OK, codes.NotFound, codes.Canceled, codes.AlreadyExists, codes.InvalidArgument, codes.Unauthenticated:
		return slog.LevelInfo
	case codes.DeadlineExceeded, codes.PermissionDenied, codes.ResourceExhausted, codes.FailedPrecondition,
		codes.Aborted, codes.OutOfRange, codes.Unavailable:
		return slog.LevelWarn
	}
	return slog.LevelError
}

// splitMethod splits "/pkg.Service/Method".
func splitMethod(full string) (string, string) {
	full = strings.TrimPrefix(full, "/")
	if i := strings.LastIndexByte(full, '/'); i >= 0 {
		return full[:i], full[i+1:]
	}
	return "unknown", full
}

// logCall writes the access log line of a finished call.
func logCall(ctx context.Context, l *slog.Logger, fullMethod string, err error, elapsed time.Duration) {
	code := status.Code(err)
	level := accessLevel(code)
	if !l.Enabled(ctx, level) {
		return
	}
	service, method := splitMethod(fullMethod)
	var buf [6]slog.Attr
	attrs := append(buf[:0],
		slog.String("grpc.service", service),
		slog.String("grpc.method", method),
		slog.String("grpc.code", code.String()),
		slog.Duration("grpc.duration", elapsed),
	)
	if p, ok := peer.FromContext(ctx); ok && p.Addr != nil {
		attrs = append(attrs, slog.String("peer.address", peerAddrs.text(p.Addr)))
	}
	if err != nil {
		attrs = append(attrs, slog.String("grpc.error", status.Convert(err).Message()))
	}
	// A record without a caller's pc: the access log's source is always
	// this line, and runtime.Callers is a third of the cost of logging.
	r := slog.NewRecord(time.Now(), level, "finished call", 0)
	r.AddAttrs(attrs...)
	_ = l.Handler().Handle(ctx, r)
}

// peerAddrs keeps the text of the peer addresses seen: grpc-go gives every
// call of a connection the connection's own *net.TCPAddr, and formatting it
// was a fifth of an access log line's cost.
var peerAddrs addrTexts

// addrTexts maps TCP and Unix socket addresses, by pointer, to their text.
// It forgets everything once it holds maxAddrTexts, so it stays small
// whatever the number of connections.
type addrTexts struct {
	m sync.Map // *net.TCPAddr or *net.UnixAddr -> string
	n atomic.Int64
}

const maxAddrTexts = 4096

func (c *addrTexts) text(a net.Addr) string {
	switch a.(type) {
	case *net.TCPAddr, *net.UnixAddr:
	default:
		return a.String()
	}
	if s, ok := c.m.Load(a); ok {
		return s.(string)
	}
	s := a.String()
	if c.n.Add(1) > maxAddrTexts {
		c.m.Clear()
		c.n.Store(1)
	}
	c.m.Store(a, s)
	return s
}

// UnaryServerAccessLog logs one line per finished call on l (slog.Default
// when nil), with the request id when the context carries one.
func UnaryServerAccessLog(l *slog.Logger) grpc.UnaryServerInterceptor {
	l = withRequestIDs(l)
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		start := time.Now()
		resp, err := handler(ctx, req)
		logCall(ctx, l, info.FullMethod, err, time.Since(start))
		return resp, err
	}
}

// StreamServerAccessLog is UnaryServerAccessLog for streams: one line when
// the stream ends.
func StreamServerAccessLog(l *slog.Logger) grpc.StreamServerInterceptor {
	l = withRequestIDs(l)
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		start := time.Now()
		err := handler(srv, ss)
		logCall(ss.Context(), l, info.FullMethod, err, time.Since(start))
		return err
	}
}
