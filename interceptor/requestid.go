package interceptor

import (
	"context"
	"encoding/hex"
	"math/rand/v2"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// RequestIDHeader is the metadata key that carries the request id, in
// requests and in response headers.
const RequestIDHeader = "x-request-id"

// maxRequestIDLen bounds ids taken from callers; longer ones are replaced.
const maxRequestIDLen = 128

type requestIDKey struct{}

// requestIDContext carries a request id. It answers Value for its key with
// itself, so carrying an id costs one allocation where context.WithValue
// with a string costs two, on every call of the server chain.
type requestIDContext struct {
	context.Context
	id string
}

func (c *requestIDContext) Value(key any) any {
	if _, ok := key.(requestIDKey); ok {
		return c
	}
	return c.Context.Value(key)
}

func (c *requestIDContext) String() string { return "interceptor.WithRequestID(" + c.id + ")" }

// WithRequestID returns a context carrying id as the request id.
func WithRequestID(ctx context.Context, id string) context.Context {
	return &requestIDContext{Context: ctx, id: id}
}

// RequestIDFromContext returns the request id carried by ctx, if any.
func RequestIDFromContext(ctx context.Context) (string, bool) {
	c, ok := ctx.Value(requestIDKey{}).(*requestIDContext)
	return c.idOrEmpty(), ok && c.id != ""
}

func (c *requestIDContext) idOrEmpty() string {
	if c == nil {
		return ""
	}
	return c.id
}

// NewRequestID returns a fresh random request id: 32 lowercase hex digits.
func NewRequestID() string {
	var b [16]byte
	putUint64(b[:8], rand.Uint64())
	putUint64(b[8:], rand.Uint64())
	return hex.EncodeToString(b[:])
}

func putUint64(b []byte, v uint64) {
	for i := range 8 {
		b[i] = byte(v >> (8 * i))
	}
}

// validRequestID accepts short ids of printable ASCII without spaces.
func validRequestID(id string) bool {
	if id == "" || len(id) > maxRequestIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] <= ' ' || id[i] > '~' {
			return false
		}
	}
	return true
}

// incomingRequestID takes the caller's id from incoming metadata, or makes
// one when it is missing or unusable, and returns ctx carrying it.
func incomingRequestID(ctx context.Context) (context.Context, string) {
	if id, ok := RequestIDFromContext(ctx); ok {
		return ctx, id
	}
	var id string
	if vals := metadata.ValueFromIncomingContext(ctx, RequestIDHeader); len(vals) > 0 && validRequestID(vals[0]) {
		id = vals[0]
	} else {
		id = NewRequestID()
	}
	return WithRequestID(ctx, id), id
}

// UnaryServerRequestID puts the request id in the handler's context and in
// the response headers.
func UnaryServerRequestID() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		ctx, id := incomingRequestID(ctx)
		// SetHeader fails only once headers are sent, which the handler
		// has not done yet.
		_ = grpc.SetHeader(ctx, metadata.MD{RequestIDHeader: {id}})
		return handler(ctx, req)
	}
}

// StreamServerRequestID is UnaryServerRequestID for streams.
func StreamServerRequestID() grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		ctx, id := incomingRequestID(ss.Context())
		_ = ss.SetHeader(metadata.MD{RequestIDHeader: {id}})
		return handler(srv, withContext(ss, ctx))
	}
}

// outgoingRequestID adds the context's request id to the outgoing metadata
// unless the caller set one already.
func outgoingRequestID(ctx context.Context) context.Context {
	id, ok := RequestIDFromContext(ctx)
	if !ok {
		return ctx
	}
	if md, ok := metadata.FromOutgoingContext(ctx); ok && len(md[RequestIDHeader]) > 0 {
		return ctx
	}
	return metadata.AppendToOutgoingContext(ctx, RequestIDHeader, id)
}

// UnaryClientRequestID sends the request id of the call's context, so a
// server calling another with the context of its request keeps the id.
func UnaryClientRequestID() grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		return invoker(outgoingRequestID(ctx), method, req, reply, cc, opts...)
	}
}

// StreamClientRequestID is UnaryClientRequestID for streams.
func StreamClientRequestID() grpc.StreamClientInterceptor {
	return func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
		return streamer(outgoingRequestID(ctx), desc, cc, method, opts...)
	}
}
