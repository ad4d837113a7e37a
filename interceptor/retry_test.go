package interceptor_test

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rpckit/rpckit/interceptor"
	"google.golang.org/grpc/codes"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/status"
)

// failingService fails the first n calls with code, then succeeds.
func failingService(n int64, code codes.Code, calls *atomic.Int64) *testService {
	return &testService{unary: func(context.Context, *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
		if calls.Add(1) <= n {
			return nil, status.Error(code, "failing")
		}
		return &testgrpc.SimpleResponse{}, nil
	}}
}

var fastRetry = &interceptor.RetryPolicy{
	MaxAttempts:    4,
	InitialBackoff: time.Millisecond,
	MaxBackoff:     5 * time.Millisecond,
	RetryableCodes: []codes.Code{codes.Unavailable, codes.ResourceExhausted},
}

func TestRetryRetryableCodes(t *testing.T) {
	for _, code := range []codes.Code{codes.Unavailable, codes.ResourceExhausted} {
		var calls atomic.Int64
		opts, err := interceptor.ClientChain(interceptor.ClientChainOptions{Retry: fastRetry})
		if err != nil {
			t.Fatal(err)
		}
		client := dial(t, serve(t, failingService(2, code, &calls)), opts...)
		if _, err := client.UnaryCall(testContext(t), &testgrpc.SimpleRequest{}); err != nil {
			t.Errorf("%v twice then OK: got %v, want success after retries", code, err)
		}
		if calls.Load() != 3 {
			t.Errorf("%v: %d attempts, want 3", code, calls.Load())
		}
	}
}

func TestRetryGivesUp(t *testing.T) {
	var calls atomic.Int64
	opts, _ := interceptor.ClientChain(interceptor.ClientChainOptions{Retry: fastRetry})
	client := dial(t, serve(t, failingService(100, codes.Unavailable, &calls)), opts...)
	if _, err := client.UnaryCall(testContext(t), &testgrpc.SimpleRequest{}); status.Code(err) != codes.Unavailable {
		t.Errorf("got %v, want UNAVAILABLE after the last attempt", err)
	}
	if calls.Load() != 4 {
		t.Errorf("%d attempts, want MaxAttempts 4", calls.Load())
	}
}

func TestRetryNotRetryable(t *testing.T) {
	for _, code := range []codes.Code{codes.InvalidArgument, codes.Internal, codes.NotFound, codes.DeadlineExceeded} {
		var calls atomic.Int64
		opts, _ := interceptor.ClientChain(interceptor.ClientChainOptions{Retry: fastRetry})
		client := dial(t, serve(t, failingService(1, code, &calls)), opts...)
		if _, err := client.UnaryCall(testContext(t), &testgrpc.SimpleRequest{}); status.Code(err) != code {
			t.Errorf("got %v, want %v passed through", err, code)
		}
		if calls.Load() != 1 {
			t.Errorf("%v: %d attempts, want 1", code, calls.Load())
		}
	}
}

func TestServiceConfigJSON(t *testing.T) {
	sc, err := interceptor.ServiceConfig(interceptor.RetryPolicy{
		Services:          []string{"a.B"},
		RetryableCodes:    []codes.Code{codes.Unavailable, codes.DeadlineExceeded},
		Timeout:           1500 * time.Millisecond,
		ThrottleMaxTokens: 10,
	})
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		MethodConfig []struct {
			Name        []map[string]string
			Timeout     string
			RetryPolicy struct {
				MaxAttempts          int
				InitialBackoff       string
				MaxBackoff           string
				BackoffMultiplier    float64
				RetryableStatusCodes []string
			}
		}
		RetryThrottling struct{ MaxTokens, TokenRatio float64 }
	}
	if err := json.Unmarshal([]byte(sc), &got); err != nil {
		t.Fatalf("%s: %v", sc, err)
	}
	mc := got.MethodConfig[0]
	rp := mc.RetryPolicy
	if mc.Name[0]["service"] != "a.B" || mc.Timeout != "1.5s" || rp.MaxAttempts != 3 || rp.InitialBackoff != "0.1s" ||
		rp.MaxBackoff != "1s" || rp.BackoffMultiplier != 2 || len(rp.RetryableStatusCodes) != 2 ||
		rp.RetryableStatusCodes[1] != "DEADLINE_EXCEEDED" || got.RetryThrottling.TokenRatio != 0.1 {
		t.Errorf("service config %s does not hold the policy and its defaults", sc)
	}
}

func TestServiceConfigRejects(t *testing.T) {
	for name, p := range map[string]interceptor.RetryPolicy{
		"one attempt":  {MaxAttempts: 1},
		"backoffs":     {InitialBackoff: time.Second, MaxBackoff: time.Millisecond},
		"OK retryable": {RetryableCodes: []codes.Code{codes.OK}},
		"tokens":       {ThrottleMaxTokens: 5000},
	} {
		if _, err := interceptor.ServiceConfig(p); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
