package interceptortest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// env is what a check works with.
type env struct {
	client testgrpc.TestServiceClient
	svc    *service
}

// check is one named behaviour; recovery-only checks run only for chains
// that claim to recover.
type check struct {
	name     string
	recovery bool
	run      func(context.Context, env) error
}

var checks = []check{
	{name: "Unary", run: checkUnary},
	{name: "StatusCodes", run: checkStatusCodes},
	{name: "StreamStatus", run: checkStreamStatus},
	{name: "Metadata", run: checkMetadata},
	{name: "DeadlinePropagates", run: checkDeadlinePropagates},
	{name: "DeadlineExceeded", run: checkDeadlineExceeded},
	{name: "ServerStreaming", run: checkServerStreaming},
	{name: "ClientStreaming", run: checkClientStreaming},
	{name: "PingPong", run: checkPingPong},
	{name: "EmptyStream", run: checkEmptyStream},
	{name: "CancelPropagates", run: checkCancel},
	{name: "Recovery", recovery: true, run: checkRecovery},
}

func checkUnary(ctx context.Context, e env) error {
	if _, err := e.client.EmptyCall(ctx, &testgrpc.Empty{}); err != nil {
		return fmt.Errorf("EmptyCall: %w", err)
	}
	resp, err := e.client.UnaryCall(ctx, &testgrpc.SimpleRequest{ResponseSize: 314159, Payload: payload(271828)})
	if err != nil {
		return fmt.Errorf("UnaryCall: %w", err)
	}
	if !bytes.Equal(resp.GetPayload().GetBody(), payload(314159).GetBody()) {
		return fmt.Errorf("UnaryCall: response payload of %d bytes is not the %d asked for", len(resp.GetPayload().GetBody()), 314159)
	}
	return nil
}

// wantStatus checks that err is exactly the status the service was asked
// for, ErrorInfo detail included.
func wantStatus(err error, code codes.Code, msg string) error {
	st, ok := status.FromError(err)
	if !ok || st.Code() != code || st.Message() != msg {
		return fmt.Errorf("got %v, want code %v message %q", err, code, msg)
	}
	if !hasErrorInfo(st) {
		return fmt.Errorf("status %v lost its ErrorInfo detail (details: %v)", code, st.Details())
	}
	return nil
}

// hasErrorInfo reports whether st carries the service's ErrorInfo.
func hasErrorInfo(st *status.Status) bool {
	return slices.ContainsFunc(st.Details(), func(d any) bool {
		info, ok := d.(*errdetails.ErrorInfo)
		return ok && info.GetReason() == errorReason && info.GetDomain() == errorDomain
	})
}

func checkStatusCodes(ctx context.Context, e env) error {
	var errs []error
	for code := codes.Canceled; code <= codes.Unauthenticated; code++ {
		if err := checkStatusCode(ctx, e, code); err != nil {
			errs = append(errs, fmt.Errorf("UnaryCall: %w", err))
		}
	}
	return errors.Join(errs...)
}

// checkStatusCode asks for a status of code, message in Unicode.
func checkStatusCode(ctx context.Context, e env, code codes.Code) error {
	msg := fmt.Sprintf("status %d \t with unicode ☺", code)
	_, err := e.client.UnaryCall(ctx, &testgrpc.SimpleRequest{
		ResponseStatus: &testgrpc.EchoStatus{Code: int32(code), Message: msg},
	})
	return wantStatus(err, code, msg)
}

func checkStreamStatus(ctx context.Context, e env) error {
	stream, err := e.client.FullDuplexCall(ctx)
	if err != nil {
		return fmt.Errorf("FullDuplexCall: %w", err)
	}
	es := &testgrpc.EchoStatus{Code: int32(codes.FailedPrecondition), Message: "stream status"}
	if err := stream.Send(&testgrpc.StreamingOutputCallRequest{ResponseStatus: es}); err != nil {
		return fmt.Errorf("send: %w", err)
	}
	_, err = stream.Recv()
	return wantStatus(err, codes.FailedPrecondition, "stream status")
}

var echoMD = metadata.Pairs(echoPrefix+"-text", "value with spaces", echoPrefix+"-bin", "\x00\x01\xfe\xff")

// wantEcho checks that md holds each echoed key exactly once, unchanged.
func wantEcho(where string, md metadata.MD) error {
	for k, v := range echoMD {
		if got := md.Get(k); len(got) != 1 || got[0] != v[0] {
			return fmt.Errorf("%s: %s = %q, want [%q]", where, k, got, v[0])
		}
	}
	return nil
}

func checkMetadata(ctx context.Context, e env) error {
	ctx = metadata.NewOutgoingContext(ctx, echoMD)
	var header, trailer metadata.MD
	_, err := e.client.UnaryCall(ctx, &testgrpc.SimpleRequest{ResponseSize: 1}, grpc.Header(&header), grpc.Trailer(&trailer))
	if err != nil {
		return fmt.Errorf("UnaryCall: %w", err)
	}
	if err := errors.Join(wantEcho("unary header", header), wantEcho("unary trailer", trailer)); err != nil {
		return err
	}
	return checkStreamMetadata(ctx, e)
}

func checkStreamMetadata(ctx context.Context, e env) error {
	stream, err := e.client.FullDuplexCall(ctx)
	if err != nil {
		return fmt.Errorf("FullDuplexCall: %w", err)
	}
	if err := stream.CloseSend(); err != nil {
		return fmt.Errorf("CloseSend: %w", err)
	}
	header, err := stream.Header()
	if err != nil {
		return fmt.Errorf("header: %w", err)
	}
	if _, err := stream.Recv(); err != io.EOF {
		return fmt.Errorf("recv: got %v, want io.EOF", err)
	}
	return errors.Join(wantEcho("stream header", header), wantEcho("stream trailer", stream.Trailer()))
}

// checkDeadlinePropagates: the handler sees a deadline no later than the
// caller's (one second of slack covers the wire's rounding).
func checkDeadlinePropagates(ctx context.Context, e env) error {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	want, _ := ctx.Deadline()
	var header metadata.MD
	if _, err := e.client.EmptyCall(ctx, &testgrpc.Empty{}, grpc.Header(&header)); err != nil {
		return fmt.Errorf("EmptyCall: %w", err)
	}
	got := header.Get(deadlineKey)
	if len(got) != 1 || got[0] == noDeadline {
		return fmt.Errorf("handler saw no deadline (%q), want one near %v", got, want)
	}
	d, err := time.Parse(time.RFC3339Nano, got[0])
	if err != nil {
		return fmt.Errorf("handler deadline %q: %w", got[0], err)
	}
	if d.After(want.Add(time.Second)) {
		return fmt.Errorf("handler deadline %v is later than the caller's %v", d, want)
	}
	return nil
}

func waitingContext(ctx context.Context) context.Context {
	return metadata.AppendToOutgoingContext(ctx, actionKey, "wait")
}

// observed waits for what a waiting handler saw.
func observed(ctx context.Context, e env) (error, error) {
	select {
	case err := <-e.svc.observed:
		return err, nil
	case <-ctx.Done():
		return nil, errors.New("the handler never saw its context end")
	}
}

func checkDeadlineExceeded(ctx context.Context, e env) error {
	drain(e.svc)
	short, cancel := context.WithTimeout(waitingContext(ctx), 50*time.Millisecond)
	defer cancel()
	_, err := e.client.EmptyCall(short, &testgrpc.Empty{})
	if status.Code(err) != codes.DeadlineExceeded {
		return fmt.Errorf("EmptyCall on a waiting handler: got %v, want DEADLINE_EXCEEDED", err)
	}
	seen, err := observed(ctx, e)
	if err != nil {
		return err
	}
	// The server's own timer and the caller's RST_STREAM race: either
	// ends the handler's context.
	if !errors.Is(seen, context.DeadlineExceeded) && !errors.Is(seen, context.Canceled) {
		return fmt.Errorf("handler context ended with %v, want it ended", seen)
	}
	return nil
}

func drain(s *service) {
	select {
	case <-s.observed:
	default:
	}
}
