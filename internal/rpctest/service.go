package rpctest

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	testv1 "github.com/rpckit/rpckit/internal/gen/rpckit/test/v1"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"
)

// Service implements rpckit.test.v1.Test. Metadata keys starting with
// "x-echo-" come back as response headers, and as trailers renamed
// "x-trailer-...".
type Service struct {
	testv1.UnimplementedTestServer
}

func (Service) Echo(ctx context.Context, req *testv1.EchoRequest) (*testv1.EchoResponse, error) {
	echoMetadata(ctx)
	if err := sleep(ctx, req.GetDelay()); err != nil {
		return nil, err
	}
	if err := requestedError(req.GetFailCode(), req.GetFailMessage()); err != nil {
		return nil, err
	}
	return &testv1.EchoResponse{Item: req.GetItem(), Number: req.GetNumber(), Metadata: seenMetadata(ctx)}, nil
}

func (Service) Count(req *testv1.CountRequest, stream grpc.ServerStreamingServer[testv1.EchoResponse]) error {
	echoMetadata(stream.Context())
	for i := range req.GetCount() {
		if req.GetFailCode() != 0 && i == req.GetFailAfter() {
			return requestedError(req.GetFailCode(), fmt.Sprintf("failed after %d messages", i))
		}
		if i > 0 {
			if err := sleep(stream.Context(), req.GetInterval()); err != nil {
				return err
			}
		}
		if err := stream.Send(&testv1.EchoResponse{Number: int64(i + 1)}); err != nil {
			return err
		}
	}
	return nil
}

func (Service) Sum(stream grpc.ClientStreamingServer[testv1.EchoRequest, testv1.SumResponse]) error {
	echoMetadata(stream.Context())
	resp := &testv1.SumResponse{}
	for {
		req, err := stream.Recv()
		if err == io.EOF {
			return stream.SendAndClose(resp)
		}
		if err != nil {
			return err
		}
		if err := requestedError(req.GetFailCode(), req.GetFailMessage()); err != nil {
			return err
		}
		resp.Total += req.GetNumber()
		resp.Messages++
	}
}

func (Service) Chat(stream grpc.BidiStreamingServer[testv1.EchoRequest, testv1.EchoResponse]) error {
	echoMetadata(stream.Context())
	for {
		req, err := stream.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := requestedError(req.GetFailCode(), req.GetFailMessage()); err != nil {
			return err
		}
		if err := stream.Send(&testv1.EchoResponse{Item: req.GetItem(), Number: req.GetNumber()}); err != nil {
			return err
		}
	}
}

func sleep(ctx context.Context, d *durationpb.Duration) error {
	if d == nil {
		return nil
	}
	t := time.NewTimer(d.AsDuration())
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return status.FromContextError(ctx.Err()).Err()
	}
}

// requestedError builds the error a request asks for, with details of
// several google.rpc types.
func requestedError(code int32, msg string) error {
	if code == 0 {
		return nil
	}
	st := status.New(codes.Code(code), msg)
	st, err := st.WithDetails(
		&errdetails.ErrorInfo{Reason: "REQUESTED", Domain: "test.rpckit.dev", Metadata: map[string]string{"code": fmt.Sprint(code)}},
		&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{{Field: "fail_code", Description: "asked to fail"}}},
	)
	if err != nil {
		return status.Error(codes.Internal, err.Error())
	}
	return st.Err()
}

func echoMetadata(ctx context.Context) {
	md, _ := metadata.FromIncomingContext(ctx)
	header, trailer := metadata.MD{}, metadata.MD{}
	for k, vs := range md {
		if rest, ok := strings.CutPrefix(k, "x-echo-"); ok {
			header[k] = vs
			trailer["x-trailer-"+rest] = vs
		}
	}
	if len(header) > 0 {
		_ = grpc.SetHeader(ctx, header)
		_ = grpc.SetTrailer(ctx, trailer)
	}
}

// seenMetadata lists the application metadata of a request, key=value,
// sorted; transport headers are left out.
func seenMetadata(ctx context.Context) []string {
	md, _ := metadata.FromIncomingContext(ctx)
	var out []string
	for k, vs := range md {
		if strings.HasPrefix(k, ":") || k == "content-type" || k == "user-agent" || strings.HasPrefix(k, "grpc-") {
			continue
		}
		for _, v := range vs {
			out = append(out, k+"="+v)
		}
	}
	sort.Strings(out)
	return out
}
