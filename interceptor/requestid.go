package interceptor

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
	"unsafe"

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
// with a string costs two, on every call of the server chain. An id made
// here lives in its text array, and the response header's value list in
// header, in the same allocation.
type requestIDContext struct {
	context.Context
	id     string
	header [1]string
	text   [2 * requestIDBytes]byte
}

// requestIDBytes is the size of the ids NewRequestID makes.
const requestIDBytes = 16

func (c *requestIDContext) Value(key any) any {
	if _, ok := key.(requestIDKey); ok {
		return c
	}
	return c.Context.Value(key)
}

func (c *requestIDContext) String() string { return "interceptor.WithRequestID(" + c.id + ")" }

// WithRequestID returns a context carrying id as the request id.
func WithRequestID(ctx context.Context, id string) context.Context {
	return &requestIDContext{Context: ctx, id: id, header: [1]string{id}}
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
	var text [2 * requestIDBytes]byte
	randomID(&text)
	return string(text[:])
}

// randomID fills text with a random id.
func randomID(text *[2 * requestIDBytes]byte) {
	var b [requestIDBytes]byte
	binary.LittleEndian.PutUint64(b[:8], rand.Uint64())
	binary.LittleEndian.PutUint64(b[8:], rand.Uint64())
	hex.Encode(text[:], b[:])
}

// withNewRequestID returns ctx carrying a fresh random id, made in place.
func withNewRequestID(ctx context.Context) *requestIDContext {
	c := &requestIDContext{Context: ctx}
	randomID(&c.text)
	c.id = unsafe.String(&c.text[0], len(c.text)) // text is never written again
	c.header[0] = c.id
	return c
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
// one when it is missing or unusable, and returns the context carrying it,
// with the holder of the id. A context that already carries an id is
// returned as it is, with the holder found in it.
func incomingRequestID(ctx context.Context) (context.Context, *requestIDContext) {
	if c, ok := ctx.Value(requestIDKey{}).(*requestIDContext); ok && c.id != "" {
		return ctx, c
	}
	var c *requestIDContext
	if vals := metadata.ValueFromIncomingContext(ctx, RequestIDHeader); len(vals) > 0 && validRequestID(vals[0]) {
		c = &requestIDContext{Context: ctx, id: vals[0], header: [1]string{vals[0]}}
	} else {
		c = withNewRequestID(ctx)
	}
	return c, c
}

// headerMD is the response header that carries the id. grpc-go copies the
// values; the list is c's own, never changed.
func (c *requestIDContext) headerMD() metadata.MD { return metadata.MD{RequestIDHeader: c.header[:]} }

// UnaryServerRequestID puts the request id in the handler's context and in
// the response headers.
func UnaryServerRequestID() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		ctx, c := incomingRequestID(ctx)
		// SetHeader fails only once headers are sent, which the handler
		// has not done yet.
		_ = grpc.SetHeader(ctx, c.headerMD())
		return handler(ctx, req)
	}
}

// StreamServerRequestID is UnaryServerRequestID for streams.
func StreamServerRequestID() grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		ctx, c := incomingRequestID(ss.Context())
		_ = ss.SetHeader(c.headerMD())
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
