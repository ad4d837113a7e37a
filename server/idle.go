package server

import (
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// idleEnded are the methods whose streams a client keeps open between
// requests for as long as it likes, as tools keep the reflection stream:
// once the drain begins, such a stream that waits for its client's next
// request ends with UNAVAILABLE instead of holding the drain until
// ShutdownTimeout. A request already received is answered first.
var idleEnded = map[string]bool{
	"/grpc.reflection.v1.ServerReflection/ServerReflectionInfo":      true,
	"/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo": true,
}

// errDraining ends the streams of idleEnded once the drain begins.
var errDraining = status.Error(codes.Unavailable, "server: shutting down")

// endIdleStreams is the stream interceptor that ends the idle streams of
// idleEnded when s.draining is closed.
func (s *Server) endIdleStreams(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, h grpc.StreamHandler) error {
	if !idleEnded[info.FullMethod] {
		return h(srv, ss)
	}
	return h(srv, &idleStream{ServerStream: ss, draining: s.draining})
}

// idleStream is a ServerStream whose RecvMsg gives up once draining is
// closed.
type idleStream struct {
	grpc.ServerStream
	draining <-chan struct{}
}

// RecvMsg receives into a message of its own in another goroutine, so
// that it can return when the drain begins: the stream's end, which
// follows, ends that goroutine's RecvMsg too.
func (s *idleStream) RecvMsg(m any) error {
	select {
	case <-s.draining:
		return errDraining
	default:
	}
	pm, ok := m.(proto.Message)
	if !ok {
		return s.ServerStream.RecvMsg(m)
	}
	tmp := pm.ProtoReflect().New().Interface()
	done := make(chan error, 1)
	go func() { done <- s.ServerStream.RecvMsg(tmp) }()
	select {
	case err := <-done:
		if err == nil {
			proto.Reset(pm)
			proto.Merge(pm, tmp)
		}
		return err
	case <-s.draining:
		return errDraining
	}
}
