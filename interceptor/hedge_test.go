package interceptor_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rpckit/rpckit/interceptor"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// hedgeService answers attempt n (from 0) as plan[n] says: "hang" waits
// for the caller to give up, "unavailable" fails, "ok" answers with the
// attempt's number in the body and a header.
type hedgeService struct {
	plan  []string
	calls atomic.Int32
}

func (h *hedgeService) testService() *testService {
	return &testService{unary: func(ctx context.Context, _ *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
		n := int(h.calls.Add(1)) - 1
		step := "ok"
		if n < len(h.plan) {
			step = h.plan[n]
		}
		switch step {
		case "hang":
			<-ctx.Done()
			return nil, status.FromContextError(ctx.Err()).Err()
		case "unavailable":
			return nil, status.Error(codes.Unavailable, "not now")
		case "internal":
			return nil, status.Error(codes.Internal, "broken")
		}
		_ = grpc.SetHeader(ctx, metadata.Pairs("attempt", strings.Repeat("x", n+1)))
		return &testgrpc.SimpleResponse{Username: strings.Repeat("x", n+1)}, nil
	}}
}

func hedgeClient(t *testing.T, svc *hedgeService, config string, more ...grpc.DialOption) testgrpc.TestServiceClient {
	t.Helper()
	p, err := interceptor.ParseServiceConfig([]byte(config))
	if err != nil {
		t.Fatal(err)
	}
	return dial(t, serve(t, svc.testService()), append(more, p.DialOptions()...)...)
}

const hedgeConfig = `{"methodConfig":[{"name":[{"service":"grpc.testing.TestService"}],
	"hedgingPolicy":{"maxAttempts":3,"hedgingDelay":"0.02s","nonFatalStatusCodes":["UNAVAILABLE"]}}]}`

// The first attempt hangs; the second, sent after the hedging delay,
// answers, and its reply and header are the call's.
func TestHedgingSecondAttemptWins(t *testing.T) {
	svc := &hedgeService{plan: []string{"hang"}}
	client := hedgeClient(t, svc, hedgeConfig)
	var hdr metadata.MD
	resp, err := client.UnaryCall(testContext(t), &testgrpc.SimpleRequest{}, grpc.Header(&hdr))
	if err != nil {
		t.Fatal(err)
	}
	if resp.GetUsername() != "xx" || strings.Join(hdr.Get("attempt"), "") != "xx" {
		t.Errorf("got reply %q header %v, want the second attempt's", resp.GetUsername(), hdr.Get("attempt"))
	}
}

// A non-fatal code sends the next attempt at once; a fatal one ends the
// call with it.
func TestHedgingCodes(t *testing.T) {
	svc := &hedgeService{plan: []string{"unavailable", "unavailable"}}
	resp, err := hedgeClient(t, svc, hedgeConfig).UnaryCall(testContext(t), &testgrpc.SimpleRequest{})
	if err != nil || resp.GetUsername() != "xxx" {
		t.Fatalf("got %v %v, want the third attempt's reply", resp, err)
	}
	svc = &hedgeService{plan: []string{"internal", "hang"}}
	_, err = hedgeClient(t, svc, hedgeConfig).UnaryCall(testContext(t), &testgrpc.SimpleRequest{})
	if status.Code(err) != codes.Internal {
		t.Fatalf("got %v, want the first attempt's INTERNAL", err)
	}
	svc = &hedgeService{plan: []string{"unavailable", "unavailable", "unavailable"}}
	_, err = hedgeClient(t, svc, hedgeConfig).UnaryCall(testContext(t), &testgrpc.SimpleRequest{})
	if status.Code(err) != codes.Unavailable || svc.calls.Load() != 3 {
		t.Fatalf("got %v after %d attempts, want UNAVAILABLE after 3", err, svc.calls.Load())
	}
}

// Metrics count a hedged call once and its attempts after the first as
// retries.
func TestHedgingMetrics(t *testing.T) {
	m := interceptor.NewMetrics(interceptor.MetricsOptions{NoRuntime: true})
	svc := &hedgeService{plan: []string{"hang"}}
	more := append([]grpc.DialOption{grpc.WithChainUnaryInterceptor(m.UnaryClient())}, m.ClientAttempts()...)
	if _, err := hedgeClient(t, svc, hedgeConfig, more...).UnaryCall(testContext(t), &testgrpc.SimpleRequest{}); err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	text := rec.Body.String()
	for _, want := range []string{
		`grpc_client_handled_total{grpc_code="OK",grpc_method="UnaryCall",grpc_service="grpc.testing.TestService",grpc_type="unary"} 1`,
		`rpckit_client_retries_total{grpc_method="UnaryCall",grpc_service="grpc.testing.TestService"} 1`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics lack %s:\n%s", want, text)
		}
	}
}
