package interceptor

import (
	"context"

	"google.golang.org/grpc"
)

// contextStream is a server stream whose Context is replaced.
type contextStream struct {
	grpc.ServerStream
	ctx context.Context
}

func (s *contextStream) Context() context.Context { return s.ctx }

func withContext(ss grpc.ServerStream, ctx context.Context) grpc.ServerStream {
	if ctx == ss.Context() {
		return ss
	}
	return &contextStream{ServerStream: ss, ctx: ctx}
}
