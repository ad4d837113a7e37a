package interceptortest

import (
	"context"
	"errors"
	"fmt"
	"io"

	"google.golang.org/grpc/codes"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

var sizes = []int32{31415, 9, 2653, 58979}

func params(size int32) []*testgrpc.ResponseParameters {
	return []*testgrpc.ResponseParameters{{Size: size}}
}

func checkServerStreaming(ctx context.Context, e env) error {
	req := &testgrpc.StreamingOutputCallRequest{}
	for _, s := range sizes {
		req.ResponseParameters = append(req.ResponseParameters, params(s)...)
	}
	stream, err := e.client.StreamingOutputCall(ctx, req)
	if err != nil {
		return fmt.Errorf("StreamingOutputCall: %w", err)
	}
	for i, want := range sizes {
		resp, err := stream.Recv()
		if err != nil {
			return fmt.Errorf("recv %d: %w", i, err)
		}
		if got := len(resp.GetPayload().GetBody()); got != int(want) {
			return fmt.Errorf("response %d has %d bytes, want %d", i, got, want)
		}
	}
	if _, err := stream.Recv(); err != io.EOF {
		return fmt.Errorf("recv after the last response: got %v, want io.EOF", err)
	}
	return nil
}

func checkClientStreaming(ctx context.Context, e env) error {
	stream, err := e.client.StreamingInputCall(ctx)
	if err != nil {
		return fmt.Errorf("StreamingInputCall: %w", err)
	}
	var want int32
	for _, s := range sizes {
		want += s
		if err := stream.Send(&testgrpc.StreamingInputCallRequest{Payload: payload(s)}); err != nil {
			return fmt.Errorf("send: %w", err)
		}
	}
	resp, err := stream.CloseAndRecv()
	if err != nil {
		return fmt.Errorf("CloseAndRecv: %w", err)
	}
	if resp.GetAggregatedPayloadSize() != want {
		return fmt.Errorf("aggregated size %d, want %d", resp.GetAggregatedPayloadSize(), want)
	}
	return nil
}

func checkPingPong(ctx context.Context, e env) error {
	stream, err := e.client.FullDuplexCall(ctx)
	if err != nil {
		return fmt.Errorf("FullDuplexCall: %w", err)
	}
	for i, size := range sizes {
		if err := stream.Send(&testgrpc.StreamingOutputCallRequest{ResponseParameters: params(size), Payload: payload(size)}); err != nil {
			return fmt.Errorf("send %d: %w", i, err)
		}
		resp, err := stream.Recv()
		if err != nil {
			return fmt.Errorf("recv %d: %w", i, err)
		}
		if got := len(resp.GetPayload().GetBody()); got != int(size) {
			return fmt.Errorf("pong %d has %d bytes, want %d", i, got, size)
		}
	}
	if err := stream.CloseSend(); err != nil {
		return fmt.Errorf("CloseSend: %w", err)
	}
	if _, err := stream.Recv(); err != io.EOF {
		return fmt.Errorf("recv after CloseSend: got %v, want io.EOF", err)
	}
	return nil
}

func checkEmptyStream(ctx context.Context, e env) error {
	stream, err := e.client.FullDuplexCall(ctx)
	if err != nil {
		return fmt.Errorf("FullDuplexCall: %w", err)
	}
	if err := stream.CloseSend(); err != nil {
		return fmt.Errorf("CloseSend: %w", err)
	}
	if _, err := stream.Recv(); err != io.EOF {
		return fmt.Errorf("recv on an empty stream: got %v, want io.EOF", err)
	}
	return nil
}

// checkCancel: cancelling a stream ends it with CANCELED on the client and
// cancels the handler's context.
func checkCancel(ctx context.Context, e env) error {
	drain(e.svc)
	callCtx, cancel := context.WithCancel(waitingContext(ctx))
	defer cancel()
	stream, err := e.client.FullDuplexCall(callCtx)
	if err != nil {
		return fmt.Errorf("FullDuplexCall: %w", err)
	}
	if _, err := stream.Header(); err != nil {
		return fmt.Errorf("header: %w", err)
	}
	cancel()
	if _, err := stream.Recv(); status.Code(err) != codes.Canceled {
		return fmt.Errorf("recv after cancel: got %v, want CANCELED", err)
	}
	seen, err := observed(ctx, e)
	if err != nil {
		return err
	}
	if !errors.Is(seen, context.Canceled) {
		return fmt.Errorf("handler context ended with %v, want context.Canceled", seen)
	}
	return nil
}

// checkRecovery: a panic becomes INTERNAL, unary and streaming, and the
// server serves the next call.
func checkRecovery(ctx context.Context, e env) error {
	panicking := metadata.AppendToOutgoingContext(ctx, actionKey, "panic")
	if _, err := e.client.EmptyCall(panicking, &testgrpc.Empty{}); status.Code(err) != codes.Internal {
		return fmt.Errorf("EmptyCall that panics: got %v, want INTERNAL", err)
	}
	stream, err := e.client.FullDuplexCall(panicking)
	if err != nil {
		return fmt.Errorf("FullDuplexCall: %w", err)
	}
	if _, err := stream.Recv(); status.Code(err) != codes.Internal {
		return fmt.Errorf("FullDuplexCall that panics: got %v, want INTERNAL", err)
	}
	if _, err := e.client.EmptyCall(ctx, &testgrpc.Empty{}); err != nil {
		return fmt.Errorf("EmptyCall after a panic: %w", err)
	}
	return nil
}
