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
// grpc.duration (a Go duration string such as "1.234ms", in JSON as in
// text, where slog's own durations are nanoseconds in JSON),
// request_id when the request-id interceptor runs first, and grpc.error
// for failures. They are built here rather than by go-grpc-middleware's
// logging interceptor, which measured several microseconds per call (it
// formats start times and deadlines and merges field lists on every call);
// this one does nothing for a level the handler drops and otherwise writes
// one record of at most five attributes on a handler that carries the
// method's two. Floats are avoided: slog's JSON handler encodes them
// through encoding/json.

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

// accessLog writes the access log lines of one logger. Each method gets
// the logger's handler with its grpc.service and grpc.method attributes
// added once by WithAttrs, so handlers that format attributes ahead, as
// slog's own do, print those two once per method instead of once per call.
type accessLog struct {
	l       *slog.Logger // wrapped by withRequestIDs
	methods boundedCache[string, slog.Handler]
}

func newAccessLog(l *slog.Logger) *accessLog { return &accessLog{l: withRequestIDs(l)} }

// handler returns the handler of a method's lines.
func (a *accessLog) handler(fullMethod string) slog.Handler {
	return a.methods.get(fullMethod, func(fullMethod string) slog.Handler {
		service, method := splitMethod(fullMethod)
		return a.l.Handler().WithAttrs([]slog.Attr{
			slog.String("grpc.service", service),
			slog.String("grpc.method", method),
		})
	})
}

// call writes the line of a call that ran from start to end and ended
// with st (see statusOf).
func (a *accessLog) call(ctx context.Context, fullMethod string, st *status.Status, start, end time.Time) {
	code := st.Code()
	level := accessLevel(code)
	if !a.l.Enabled(ctx, level) {
		return
	}
	// A record without a caller's pc: the access log's source is always
	// this line, and runtime.Callers is a third of the cost of logging.
	// Four attributes at most, and the request id: all within the ones a
	// record holds without allocating.
	r := slog.NewRecord(end, level, "finished call", 0)
	r.AddAttrs(
		slog.String("grpc.code", code.String()),
		slog.String("grpc.duration", end.Sub(start).String()),
	)
	if p, ok := peer.FromContext(ctx); ok && p.Addr != nil {
		r.AddAttrs(slog.String("peer.address", peerAddrs.text(p.Addr)))
	}
	if code != codes.OK {
		r.AddAttrs(slog.String("grpc.error", st.Message()))
	}
	_ = a.handler(fullMethod).Handle(ctx, r)
}

// peerAddrs keeps the text of the peer addresses seen: grpc-go gives every
// call of a connection the connection's own *net.TCPAddr, and formatting it
// was a fifth of an access log line's cost.
var peerAddrs addrTexts

// addrTexts maps TCP and Unix socket addresses, by pointer, to their text.
type addrTexts struct {
	c boundedCache[net.Addr, string]
}

func (c *addrTexts) text(a net.Addr) string {
	switch a.(type) {
	case *net.TCPAddr, *net.UnixAddr:
		return c.c.get(a, net.Addr.String)
	}
	return a.String()
}

// boundedCache maps keys to values made once by a function. It forgets
// everything once it holds maxCached entries, so it stays small whatever
// the number of keys it is asked for.
type boundedCache[K comparable, V any] struct {
	m sync.Map // K -> V
	n atomic.Int64
}

const maxCached = 4096

func (c *boundedCache[K, V]) get(k K, newV func(K) V) V {
	if v, ok := c.m.Load(k); ok {
		return v.(V)
	}
	v := newV(k)
	if c.n.Add(1) > maxCached {
		c.m.Clear()
		c.n.Store(1)
	}
	c.m.Store(k, v)
	return v
}

// UnaryServerAccessLog logs one line per finished call on l (slog.Default
// when nil), with the request id when the context carries one.
func UnaryServerAccessLog(l *slog.Logger) grpc.UnaryServerInterceptor {
	a := newAccessLog(l)
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		start := time.Now()
		resp, err := handler(ctx, req)
		a.call(ctx, info.FullMethod, statusOf(err), start, time.Now())
		return resp, err
	}
}

// StreamServerAccessLog is UnaryServerAccessLog for streams: one line when
// the stream ends.
func StreamServerAccessLog(l *slog.Logger) grpc.StreamServerInterceptor {
	a := newAccessLog(l)
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		start := time.Now()
		err := handler(srv, ss)
		a.call(ss.Context(), info.FullMethod, statusOf(err), start, time.Now())
		return err
	}
}
