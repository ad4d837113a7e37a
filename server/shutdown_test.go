package server_test

import (
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/rpckit/rpckit/server"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	rpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/grpc/status"
)

func ping(t *testing.T, stream testgrpc.TestService_FullDuplexCallClient, size int32) {
	t.Helper()
	if err := stream.Send(&testgrpc.StreamingOutputCallRequest{ResponseParameters: []*testgrpc.ResponseParameters{{Size: size}}}); err != nil {
		t.Fatalf("Send: %v", err)
	}
	resp, err := stream.Recv()
	if err != nil || len(resp.GetPayload().GetBody()) != int(size) {
		t.Fatalf("Recv: %v, %v", resp, err)
	}
}

func notReturned(t *testing.T, r *running, when string) {
	t.Helper()
	select {
	case err := <-r.done:
		t.Fatalf("Serve returned (%v) %s", err, when)
	default:
	}
}

// TestGracefulShutdown: on ctx cancel health turns NOT_SERVING while an
// in-flight stream still works; Serve returns only after it ends.
func TestGracefulShutdown(t *testing.T) {
	svc := &echoService{opened: make(chan struct{}, 1)}
	r := start(t, server.Options{}, func(s *server.Server) { testgrpc.RegisterTestServiceServer(s, svc) })
	ctx := testContext(t)
	watch, err := healthpb.NewHealthClient(r.conn).Watch(ctx, &healthpb.HealthCheckRequest{Service: testService})
	if err != nil {
		t.Fatal(err)
	}
	if resp, err := watch.Recv(); err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("first watch update %v, %v; want SERVING", resp, err)
	}
	stream, err := testgrpc.NewTestServiceClient(r.conn).FullDuplexCall(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ping(t, stream, 10)
	<-svc.opened

	r.cancel()
	if resp, err := watch.Recv(); err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_NOT_SERVING {
		t.Fatalf("watch update after cancel %v, %v; want NOT_SERVING", resp, err)
	}
	if code, _ := r.get(t, "/readyz"); code != http.StatusServiceUnavailable {
		t.Errorf("/readyz while draining: %d, want 503", code)
	}
	if _, err := watch.Recv(); status.Code(err) != codes.Unavailable {
		t.Errorf("watch stream after NOT_SERVING: %v, want it ended UNAVAILABLE", err)
	}
	notReturned(t, r, "with a stream in flight")
	ping(t, stream, 20) // the in-flight stream still works
	notReturned(t, r, "with a stream in flight")

	if err := stream.CloseSend(); err != nil {
		t.Fatal(err)
	}
	if _, err := stream.Recv(); err != io.EOF {
		t.Fatalf("stream end: %v, want io.EOF", err)
	}
	if err := r.wait(t); err != nil {
		t.Fatalf("Serve: %v", err)
	}
}

// TestShutdownTimeout: a stream that never ends is cancelled once the
// drain times out, and Serve returns.
func TestShutdownTimeout(t *testing.T) {
	svc := &echoService{opened: make(chan struct{}, 1)}
	r := start(t, server.Options{ShutdownTimeout: 50 * time.Millisecond},
		func(s *server.Server) { testgrpc.RegisterTestServiceServer(s, svc) })
	stream, err := testgrpc.NewTestServiceClient(r.conn).FullDuplexCall(testContext(t))
	if err != nil {
		t.Fatal(err)
	}
	ping(t, stream, 1)
	<-svc.opened
	r.cancel()
	if err := r.wait(t); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if _, err := stream.Recv(); status.Code(err) != codes.Unavailable && status.Code(err) != codes.Canceled {
		t.Errorf("stream after forced stop: %v, want UNAVAILABLE or CANCELED", err)
	}
}

// TestDrainDelay: during the delay the server is NOT_SERVING yet still
// accepts new calls.
func TestDrainDelay(t *testing.T) {
	r := start(t, server.Options{DrainDelay: time.Hour, ShutdownTimeout: time.Second}, registerEcho)
	ctx := testContext(t)
	hc := healthpb.NewHealthClient(r.conn)
	watch, err := hc.Watch(ctx, &healthpb.HealthCheckRequest{})
	if err != nil {
		t.Fatal(err)
	}
	watch.Recv()
	r.cancel()
	if resp, err := watch.Recv(); err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_NOT_SERVING {
		t.Fatalf("watch after cancel: %v, %v", resp, err)
	}
	if _, err := testgrpc.NewTestServiceClient(r.conn).EmptyCall(ctx, &testgrpc.Empty{}); err != nil {
		t.Errorf("new call during the drain delay: %v", err)
	}
	notReturned(t, r, "during the drain delay")
}

// TestIdleReflectionStreamDoesNotHoldDrain: a client that keeps its
// reflection stream open, as tools do between requests, does not make the
// drain wait for ShutdownTimeout: the stream ends UNAVAILABLE once the
// drain begins, and Serve returns.
func TestIdleReflectionStreamDoesNotHoldDrain(t *testing.T) {
	r := start(t, server.Options{ShutdownTimeout: time.Minute}, registerEcho)
	stream, err := rpb.NewServerReflectionClient(r.conn).ServerReflectionInfo(testContext(t))
	if err != nil {
		t.Fatal(err)
	}
	list := &rpb.ServerReflectionRequest{MessageRequest: &rpb.ServerReflectionRequest_ListServices{ListServices: "*"}}
	if err := stream.Send(list); err != nil {
		t.Fatal(err)
	}
	if resp, err := stream.Recv(); err != nil || len(resp.GetListServicesResponse().GetService()) == 0 {
		t.Fatalf("reflection answer %v, %v", resp, err)
	}
	r.cancel()
	select {
	case err := <-r.done:
		r.done <- err // for the cleanup's wait
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("Serve still draining 15s after the shutdown began, with an idle reflection stream open")
	}
	if _, err := stream.Recv(); status.Code(err) != codes.Unavailable {
		t.Errorf("reflection stream after the drain: %v, want UNAVAILABLE", err)
	}
}
