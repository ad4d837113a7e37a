package invoke

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"connectrpc.com/connect"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// unary makes a unary call: a POST, or a GET for a Connect method without
// side effects.
func (w *webClient) unary(ctx context.Context, md protoreflect.MethodDescriptor, req []byte, resp *Response) error {
	r := connect.NewRequest(&frame{b: req})
	setHeaders(ctx, r.Header())
	res, err := w.client(md).CallUnary(ctx, r)
	if err != nil {
		var ce *connect.Error
		if errors.As(err, &ce) {
			resp.Trailer = headerMD(ce.Meta())
		}
		return webError(ctx, err)
	}
	resp.Message = res.Msg.b
	resp.Header, resp.Trailer = headerMD(res.Header()), headerMD(res.Trailer())
	return nil
}

// webStream is a streaming call over connect-go, shaped like grpc-go's
// ClientStream so Stream serves both. A client or bidi stream opens at
// once; a server stream opens on CloseSend, with the one request sent.
type webStream struct {
	ctx    context.Context
	md     protoreflect.MethodDescriptor
	client *connect.Client[frame, frame]

	opened chan struct{} // closed once conn is set (or openErr)
	once   sync.Once
	conn   connect.StreamingClientConn
	err    error  // why the call could not open
	req    []byte // a server stream's request, until CloseSend
	reqSet bool

	unary           *Response // a unary method's response, before Recv takes it
	header, trailer metadata.MD
	web             *webClient
}

func (w *webClient) stream(ctx context.Context, md protoreflect.MethodDescriptor) (*webStream, error) {
	if err := w.checkStream(md); err != nil {
		return nil, err
	}
	s := &webStream{ctx: ctx, md: md, client: w.client(md), opened: make(chan struct{}), web: w}
	switch {
	case md.IsStreamingClient() && md.IsStreamingServer():
		s.open(s.client.CallBidiStream(ctx).Conn())
	case md.IsStreamingClient():
		s.open(s.client.CallClientStream(ctx).Conn())
	}
	if s.conn != nil {
		setHeaders(ctx, s.conn.RequestHeader())
	}
	return s, s.err
}

func (s *webStream) open(conn connect.StreamingClientConn, err error) {
	s.once.Do(func() {
		s.conn, s.err = conn, webError(s.ctx, err)
		close(s.opened)
	})
}

// wait blocks until the call is open.
func (s *webStream) wait() error {
	select {
	case <-s.opened:
		return s.err
	case <-s.ctx.Done():
		return webStatus(s.ctx.Err())
	}
}

func (s *webStream) Context() context.Context { return s.ctx }

func (s *webStream) SendMsg(m any) error {
	b, err := frameBytes(m)
	if err != nil {
		return err
	}
	if !s.md.IsStreamingClient() {
		if s.reqSet {
			return errors.New("a server-streaming or unary call takes one request")
		}
		s.req, s.reqSet = b, true
		return nil
	}
	if err := s.conn.Send(&frame{b: b}); err != nil {
		if errors.Is(err, io.EOF) {
			return io.EOF // the call is over; Recv says how
		}
		return webError(s.ctx, err)
	}
	return nil
}

func (s *webStream) CloseSend() error {
	if s.md.IsStreamingClient() {
		return webError(s.ctx, s.conn.CloseRequest())
	}
	if !s.md.IsStreamingServer() {
		s.callUnary()
		return nil
	}
	req := connect.NewRequest(&frame{b: s.req})
	setHeaders(s.ctx, req.Header())
	ss, err := s.client.CallServerStream(s.ctx, req)
	if err != nil {
		s.open(nil, err)
		return nil // Recv reports it
	}
	s.open(ss.Conn())
	return nil
}

func (s *webStream) RecvMsg(m any) error {
	dst, ok := m.(*[]byte)
	if !ok {
		return fmt.Errorf("invoke: codec cannot receive into %T", m)
	}
	if err := s.wait(); err != nil {
		return err
	}
	if s.conn == nil { // a unary method
		if s.unary == nil {
			return io.EOF
		}
		*dst, s.unary = s.unary.Message, nil
		return nil
	}
	var f frame
	if err := s.conn.Receive(&f); err != nil {
		_ = s.conn.CloseResponse()
		if errors.Is(err, io.EOF) {
			return io.EOF
		}
		return webError(s.ctx, err)
	}
	*dst = f.b
	return nil
}

// callUnary makes a unary method's call once its request is in, keeping
// the response for Recv and the metadata for Header and Trailer.
func (s *webStream) callUnary() {
	resp := &Response{}
	err := s.web.unary(s.ctx, s.md, s.req, resp)
	s.once.Do(func() {
		s.unary, s.err = resp, err
		s.header, s.trailer = resp.Header, resp.Trailer
		close(s.opened)
	})
}

func (s *webStream) Header() (metadata.MD, error) {
	if err := s.wait(); err != nil {
		return s.header, err
	}
	if s.conn == nil {
		return s.header, nil
	}
	return headerMD(s.conn.ResponseHeader()), nil
}

func (s *webStream) Trailer() metadata.MD {
	select {
	case <-s.opened:
		if s.conn != nil {
			return headerMD(s.conn.ResponseTrailer())
		}
		return s.trailer
	default:
	}
	return nil
}

func frameBytes(m any) ([]byte, error) {
	switch v := m.(type) {
	case []byte:
		return v, nil
	case *[]byte:
		return *v, nil
	}
	return nil, fmt.Errorf("invoke: codec cannot send %T", m)
}
