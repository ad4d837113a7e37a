package server_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rpckit/rpckit/server"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	rpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	rpbalpha "google.golang.org/grpc/reflection/grpc_reflection_v1alpha"
)

const testService = "grpc.testing.TestService"

func registerEcho(s *server.Server) { testgrpc.RegisterTestServiceServer(s, &echoService{}) }

func TestHealthPerService(t *testing.T) {
	r := start(t, server.Options{}, registerEcho)
	ctx := testContext(t)
	hc := healthpb.NewHealthClient(r.conn)
	for _, svc := range []string{"", testService} {
		resp, err := hc.Check(ctx, &healthpb.HealthCheckRequest{Service: svc})
		if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
			t.Errorf("Check(%q) = %v, %v; want SERVING", svc, resp, err)
		}
	}
	r.srv.SetServing(testService, false)
	resp, err := hc.Check(ctx, &healthpb.HealthCheckRequest{Service: testService})
	if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_NOT_SERVING {
		t.Errorf("after SetServing(false): %v, %v; want NOT_SERVING", resp, err)
	}
	if code, _ := r.get(t, "/readyz?service="+testService); code != http.StatusServiceUnavailable {
		t.Errorf("/readyz for a NOT_SERVING service: %d, want 503", code)
	}
	if code, _ := r.get(t, "/readyz"); code != http.StatusOK {
		t.Errorf("/readyz: %d, want 200", code)
	}
}

func TestReflectionBothVersions(t *testing.T) {
	r := start(t, server.Options{}, registerEcho)
	ctx := testContext(t)
	v1, err := rpb.NewServerReflectionClient(r.conn).ServerReflectionInfo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	v1.Send(&rpb.ServerReflectionRequest{MessageRequest: &rpb.ServerReflectionRequest_ListServices{}})
	resp, err := v1.Recv()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range resp.GetListServicesResponse().GetService() {
		names = append(names, s.GetName())
	}
	for _, want := range []string{testService, "grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection"} {
		if !slices.Contains(names, want) {
			t.Errorf("reflection lists %v, missing %s", names, want)
		}
	}
	alpha, err := rpbalpha.NewServerReflectionClient(r.conn).ServerReflectionInfo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	//lint:ignore SA1019 the server still answers v1alpha, for clients that lack v1
	alpha.Send(&rpbalpha.ServerReflectionRequest{MessageRequest: &rpbalpha.ServerReflectionRequest_FileContainingSymbol{FileContainingSymbol: testService}})
	//lint:ignore SA1019 as above
	if resp, err := alpha.Recv(); err != nil || len(resp.GetFileDescriptorResponse().GetFileDescriptorProto()) == 0 {
		t.Errorf("v1alpha file_containing_symbol: %v, %v", resp, err)
	}
}

func TestAdminEndpoints(t *testing.T) {
	r := start(t, server.Options{Pprof: true}, registerEcho)
	if _, err := testgrpc.NewTestServiceClient(r.conn).EmptyCall(testContext(t), &testgrpc.Empty{}); err != nil {
		t.Fatal(err)
	}
	if code, body := r.get(t, "/healthz"); code != http.StatusOK || body != "ok\n" {
		t.Errorf("/healthz: %d %q", code, body)
	}
	code, body := r.get(t, "/metrics")
	want := `grpc_server_handled_total{grpc_code="OK",grpc_method="EmptyCall",grpc_service="grpc.testing.TestService",grpc_type="unary"} 1`
	if code != http.StatusOK || !strings.Contains(body, want) {
		t.Errorf("/metrics: %d, missing %s", code, want)
	}
	// Initialized series exist before any call.
	if !strings.Contains(body, `grpc_server_handled_total{grpc_code="OK",grpc_method="FullDuplexCall"`) {
		t.Error("/metrics: methods are not pre-initialized")
	}
	if code, _ := r.get(t, "/debug/pprof/"); code != http.StatusOK {
		t.Errorf("/debug/pprof/: %d, want 200", code)
	}
}

func TestAdminWithoutPprof(t *testing.T) {
	r := start(t, server.Options{}, registerEcho)
	if code, _ := r.get(t, "/debug/pprof/"); code != http.StatusNotFound {
		t.Errorf("/debug/pprof/ without Pprof: %d, want 404", code)
	}
}

func TestOptionsRejected(t *testing.T) {
	for _, o := range []server.Options{{MaxRecvMsgSize: -1}, {ShutdownTimeout: -1}} {
		if _, err := server.New(o); err == nil || !strings.HasPrefix(err.Error(), "server: ") {
			t.Errorf("New(%+v) = %v, want a server: error", o, err)
		}
	}
}

func TestMaxRecvMsgSize(t *testing.T) {
	r := start(t, server.Options{MaxRecvMsgSize: 1024}, registerEcho)
	stream, err := testgrpc.NewTestServiceClient(r.conn).FullDuplexCall(testContext(t))
	if err != nil {
		t.Fatal(err)
	}
	stream.Send(&testgrpc.StreamingOutputCallRequest{
		ResponseParameters: []*testgrpc.ResponseParameters{{Size: 1}},
		Payload:            &testgrpc.Payload{Body: make([]byte, 4096)},
	})
	if _, err := stream.Recv(); err == nil || !strings.Contains(err.Error(), "ResourceExhausted") && !strings.Contains(err.Error(), "larger than max") {
		t.Errorf("oversized message: got %v, want RESOURCE_EXHAUSTED", err)
	}
}

func TestListenError(t *testing.T) {
	srv, err := server.New(server.Options{Addr: "256.0.0.1:0", Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Serve(testContext(t)); err == nil || !strings.HasPrefix(err.Error(), "server: ") {
		t.Errorf("Serve on a bad address: %v", err)
	}
}

// TestDrainingGauge: rpckit_server_draining is 0 while serving and 1 from
// the start of shutdown, while the admin listener still answers.
func TestDrainingGauge(t *testing.T) {
	r := start(t, server.Options{DrainDelay: time.Hour, ShutdownTimeout: time.Second}, registerEcho)
	if _, body := r.get(t, "/metrics"); !strings.Contains(body, "\nrpckit_server_draining 0\n") {
		t.Fatalf("/metrics while serving: no rpckit_server_draining 0 in\n%s", body)
	}
	hc := healthpb.NewHealthClient(r.conn)
	watch, err := hc.Watch(testContext(t), &healthpb.HealthCheckRequest{})
	if err != nil {
		t.Fatal(err)
	}
	watch.Recv()
	r.cancel()
	watch.Recv() // NOT_SERVING: shutdown has begun
	if _, body := r.get(t, "/metrics"); !strings.Contains(body, "\nrpckit_server_draining 1\n") {
		t.Errorf("/metrics during the drain delay: no rpckit_server_draining 1 in\n%s", body)
	}
}

// TestLatencyBucketsHoldTheObjective: the handling histogram has a 0.2 s
// bound, the latency objective of deploy/prometheus's rules.
func TestLatencyBucketsHoldTheObjective(t *testing.T) {
	r := start(t, server.Options{}, registerEcho)
	if _, err := testgrpc.NewTestServiceClient(r.conn).EmptyCall(testContext(t), &testgrpc.Empty{}); err != nil {
		t.Fatal(err)
	}
	want := `grpc_server_handling_seconds_bucket{grpc_method="EmptyCall",grpc_service="grpc.testing.TestService",grpc_type="unary",le="0.2"} 1`
	if _, body := r.get(t, "/metrics"); !strings.Contains(body, want) {
		t.Errorf("/metrics: missing %s", want)
	}
}
