package interceptor

import (
	"context"
	"io"
	"sync"
	"time"

	"google.golang.org/grpc"
)

// defaultTimeout gives ctx a deadline d from now unless it has one.
func defaultTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return ctx, func() {}
	}
	if _, ok := ctx.Deadline(); ok {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, d)
}

// UnaryClientTimeout gives calls without a deadline one of d. Calls whose
// context has a deadline keep it. A d of zero or less changes nothing.
func UnaryClientTimeout(d time.Duration) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		ctx, cancel := defaultTimeout(ctx, d)
		defer cancel()
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}

// StreamClientTimeout gives streams without a deadline one of d, covering
// the whole stream. The timer is released when the stream ends.
func StreamClientTimeout(d time.Duration) grpc.StreamClientInterceptor {
	return func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
		ctx, cancel := defaultTimeout(ctx, d)
		cs, err := streamer(ctx, desc, cc, method, opts...)
		if err != nil {
			cancel()
			return nil, err
		}
		return onStreamEnd(cs, desc, func(error) { cancel() }), nil
	}
}

// endStream is a client stream that calls end once when the stream is
// over: RecvMsg failed (io.EOF is a clean end, reported as nil), or the one
// response of a non-server-streaming call arrived.
type endStream struct {
	grpc.ClientStream
	serverStreams bool
	once          sync.Once
	end           func(error)
}

func onStreamEnd(cs grpc.ClientStream, desc *grpc.StreamDesc, end func(error)) grpc.ClientStream {
	return &endStream{ClientStream: cs, serverStreams: desc.ServerStreams, end: end}
}

func (s *endStream) RecvMsg(m any) error {
	err := s.ClientStream.RecvMsg(m)
	switch {
	case err == io.EOF:
		s.finish(nil)
	case err != nil:
		s.finish(err)
	case !s.serverStreams:
		s.finish(nil)
	}
	return err
}

func (s *endStream) finish(err error) { s.once.Do(func() { s.end(err) }) }
