package invoke

import (
	"context"
	"errors"
	"fmt"
	"io"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// rawBytes makes a call send and receive wire bytes; the connection's other
// users (reflection, health) keep the standard codec.
var rawBytes = grpc.ForceCodecV2(rawCodec{})

// MethodPath is the HTTP/2 path of a method: /pkg.Service/Method.
func MethodPath(md protoreflect.MethodDescriptor) string {
	return "/" + string(md.Parent().FullName()) + "/" + string(md.Name())
}

// Response is the result of a unary call.
type Response struct {
	Message []byte
	Header  metadata.MD
	Trailer metadata.MD
}

// Unary calls a unary method with one request message in wire form. Request
// metadata and the deadline come from ctx. A call the server fails returns
// an *Error; the response's Header and Trailer are filled in either case.
// opts apply to gRPC calls only.
func (c *Conn) Unary(ctx context.Context, md protoreflect.MethodDescriptor, req []byte, opts ...grpc.CallOption) (*Response, error) {
	resp := &Response{}
	if c.web != nil {
		if err := c.web.unary(ctx, md, req, resp); err != nil {
			return resp, callError(md, err)
		}
		return resp, nil
	}
	opts = append(opts, rawBytes, grpc.Header(&resp.Header), grpc.Trailer(&resp.Trailer))
	err := c.cc.Invoke(ctx, MethodPath(md), req, &resp.Message, opts...)
	if err != nil {
		return resp, callError(md, err)
	}
	return resp, nil
}

// Stream is an open call of any kind: send requests, then CloseSend, and
// receive responses until Recv returns io.EOF.
type Stream struct {
	md protoreflect.MethodDescriptor
	cs grpc.ClientStream
}

// NewStream opens a call of any kind. For a server-streaming call, send the
// one request then CloseSend; for a unary method it behaves the same way.
// opts apply to gRPC calls only.
func (c *Conn) NewStream(ctx context.Context, md protoreflect.MethodDescriptor, opts ...grpc.CallOption) (*Stream, error) {
	if c.web != nil {
		ws, err := c.web.stream(ctx, md)
		if err != nil {
			return nil, callError(md, err)
		}
		return &Stream{md: md, cs: ws}, nil
	}
	desc := &grpc.StreamDesc{
		StreamName:    string(md.Name()),
		ServerStreams: md.IsStreamingServer(),
		ClientStreams: md.IsStreamingClient(),
	}
	cs, err := c.cc.NewStream(ctx, desc, MethodPath(md), append(opts, rawBytes)...)
	if err != nil {
		return nil, callError(md, err)
	}
	return &Stream{md: md, cs: cs}, nil
}

// Send sends one request message in wire form. After the server has ended
// the call, Send returns io.EOF and Recv gives the status.
func (s *Stream) Send(msg []byte) error {
	err := s.cs.SendMsg(msg)
	if err != nil && !errors.Is(err, io.EOF) {
		return callError(s.md, err)
	}
	return err
}

// CloseSend half-closes the call: no more requests.
func (s *Stream) CloseSend() error { return s.cs.CloseSend() }

// Recv returns the next response message, io.EOF after the last one of a
// call that succeeded, or an *Error.
func (s *Stream) Recv() ([]byte, error) {
	var msg []byte
	err := s.cs.RecvMsg(&msg)
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, io.EOF
		}
		return nil, callError(s.md, err)
	}
	return msg, nil
}

// Header waits for and returns the response headers.
func (s *Stream) Header() (metadata.MD, error) { return s.cs.Header() }

// Trailer returns the response trailers once Recv has returned an error or
// io.EOF.
func (s *Stream) Trailer() metadata.MD { return s.cs.Trailer() }

// Error is a call that ended with a non-OK status.
type Error struct {
	// Method is the full name of the method called.
	Method protoreflect.FullName
	Status *status.Status
}

func (e *Error) Error() string {
	return fmt.Sprintf("invoke: %s: %s: %s", e.Method, CodeName(e.Status.Code()), e.Status.Message())
}

// GRPCStatus lets status.FromError and status.Code see the call's status.
func (e *Error) GRPCStatus() *status.Status { return e.Status }

func callError(md protoreflect.MethodDescriptor, err error) error {
	st, ok := status.FromError(err)
	if !ok {
		return fmt.Errorf("invoke: %s: %w", md.FullName(), err)
	}
	return &Error{Method: md.FullName(), Status: st}
}
