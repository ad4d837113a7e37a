package interceptortest

import (
	"context"
	"io"
	"strings"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// Request metadata that steers the test service, and the response header
// that reports what it saw.
const (
	actionKey   = "interceptortest-action" // "panic" or "wait"
	echoPrefix  = "interceptortest-echo"   // echoed into header and trailer
	deadlineKey = "interceptortest-deadline"
	noDeadline  = "none"
	errorReason = "INTERCEPTORTEST"
	errorDomain = "rpckit.interceptortest"
)

// service is the TestService the checks call. Handlers told to wait report
// their context's error on observed.
type service struct {
	testgrpc.UnimplementedTestServiceServer
	observed chan error
}

func newService() *service { return &service{observed: make(chan error, 1)} }

// begin does what every handler does first: echo metadata, report the
// deadline, then panic or wait when asked.
func (s *service) begin(ctx context.Context, sink mdSink) error {
	md, _ := metadata.FromIncomingContext(ctx)
	echo := metadata.MD{deadlineKey: {deadlineValue(ctx)}}
	for k, v := range md {
		if strings.HasPrefix(k, echoPrefix) {
			echo[k] = v
		}
	}
	if err := sink.header(echo); err != nil {
		return err
	}
	if err := sink.trailer(echo.Copy()); err != nil {
		return err
	}
	return s.act(ctx, md.Get(actionKey), sink)
}

func (s *service) act(ctx context.Context, action []string, sink mdSink) error {
	if len(action) == 0 {
		return nil
	}
	switch action[0] {
	case "panic":
		panic("interceptortest: panic asked for by the client")
	case "wait":
		// Headers go out first, so the caller knows the call is running.
		if err := sink.flush(); err != nil {
			return err
		}
		<-ctx.Done()
		s.report(ctx.Err())
		return status.FromContextError(ctx.Err()).Err()
	}
	return nil
}

// report hands err to a waiting check without ever blocking.
func (s *service) report(err error) {
	select {
	case s.observed <- err:
	default:
	}
}

func deadlineValue(ctx context.Context) string {
	d, ok := ctx.Deadline()
	if !ok {
		return noDeadline
	}
	return d.Format(time.RFC3339Nano)
}

// mdSink sets response metadata, the unary or the streaming way.
type mdSink struct {
	header, trailer func(metadata.MD) error
	flush           func() error
}

func unaryMD(ctx context.Context) mdSink {
	return mdSink{
		header:  func(md metadata.MD) error { return grpc.SetHeader(ctx, md) },
		trailer: func(md metadata.MD) error { return grpc.SetTrailer(ctx, md) },
		flush:   func() error { return grpc.SendHeader(ctx, nil) },
	}
}

func streamMD(ss grpc.ServerStream) mdSink {
	return mdSink{
		header:  ss.SetHeader,
		trailer: func(md metadata.MD) error { ss.SetTrailer(md); return nil },
		flush:   func() error { return ss.SendHeader(nil) },
	}
}

// echoStatus turns a requested status into an error carrying an ErrorInfo
// detail, so checks can see details pass through.
func echoStatus(es *testgrpc.EchoStatus) error {
	if es.GetCode() == 0 {
		return nil
	}
	st := status.New(codes.Code(es.GetCode()), es.GetMessage())
	withDetails, err := st.WithDetails(&errdetails.ErrorInfo{Reason: errorReason, Domain: errorDomain})
	if err != nil {
		return st.Err()
	}
	return withDetails.Err()
}

func payload(size int32) *testgrpc.Payload {
	body := make([]byte, size)
	for i := range body {
		body[i] = byte(i)
	}
	return &testgrpc.Payload{Type: testgrpc.PayloadType_COMPRESSABLE, Body: body}
}

func (s *service) EmptyCall(ctx context.Context, _ *testgrpc.Empty) (*testgrpc.Empty, error) {
	if err := s.begin(ctx, unaryMD(ctx)); err != nil {
		return nil, err
	}
	return &testgrpc.Empty{}, nil
}

func (s *service) UnaryCall(ctx context.Context, req *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
	if err := s.begin(ctx, unaryMD(ctx)); err != nil {
		return nil, err
	}
	if err := echoStatus(req.GetResponseStatus()); err != nil {
		return nil, err
	}
	return &testgrpc.SimpleResponse{Payload: payload(req.GetResponseSize())}, nil
}

func (s *service) StreamingOutputCall(req *testgrpc.StreamingOutputCallRequest, ss testgrpc.TestService_StreamingOutputCallServer) error {
	if err := s.begin(ss.Context(), streamMD(ss)); err != nil {
		return err
	}
	for _, p := range req.GetResponseParameters() {
		if err := ss.Send(&testgrpc.StreamingOutputCallResponse{Payload: payload(p.GetSize())}); err != nil {
			return err
		}
	}
	return echoStatus(req.GetResponseStatus())
}

func (s *service) StreamingInputCall(ss testgrpc.TestService_StreamingInputCallServer) error {
	if err := s.begin(ss.Context(), streamMD(ss)); err != nil {
		return err
	}
	var total int32
	for {
		req, err := ss.Recv()
		if err == io.EOF {
			return ss.SendAndClose(&testgrpc.StreamingInputCallResponse{AggregatedPayloadSize: total})
		}
		if err != nil {
			return err
		}
		total += int32(len(req.GetPayload().GetBody()))
	}
}

func (s *service) FullDuplexCall(ss testgrpc.TestService_FullDuplexCallServer) error {
	if err := s.begin(ss.Context(), streamMD(ss)); err != nil {
		return err
	}
	for {
		req, err := ss.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := echoStatus(req.GetResponseStatus()); err != nil {
			return err
		}
		for _, p := range req.GetResponseParameters() {
			if err := ss.Send(&testgrpc.StreamingOutputCallResponse{Payload: payload(p.GetSize())}); err != nil {
				return err
			}
		}
	}
}
