package interceptor_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/rpckit/rpckit/interceptor"
	"google.golang.org/grpc/codes"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/status"
)

// scrape reads the metrics the way Prometheus does.
func scrape(t *testing.T, m *interceptor.Metrics) map[string]*dto.MetricFamily {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	return fams
}

// sample finds the metric of fam whose labels include want.
func sample(fam *dto.MetricFamily, want map[string]string) *dto.Metric {
	for _, m := range fam.GetMetric() {
		n := 0
		for _, lp := range m.GetLabel() {
			if v, ok := want[lp.GetName()]; ok && v == lp.GetValue() {
				n++
			}
		}
		if n == len(want) {
			return m
		}
	}
	return nil
}

func TestMetricsLabels(t *testing.T) {
	m := interceptor.NewMetrics(interceptor.MetricsOptions{})
	svc := &testService{
		unary: func(_ context.Context, req *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
			if req.GetResponseSize() > 0 {
				return nil, status.Error(codes.NotFound, "no such thing")
			}
			return &testgrpc.SimpleResponse{}, nil
		},
		duplex: func(testgrpc.TestService_FullDuplexCallServer) error { return nil },
	}
	chain := interceptor.ServerChain(interceptor.ServerChainOptions{Metrics: m, NoAccessLog: true})
	client := dial(t, serve(t, svc, chain...))
	ctx := testContext(t)
	for range 3 {
		client.UnaryCall(ctx, &testgrpc.SimpleRequest{})
	}
	client.UnaryCall(ctx, &testgrpc.SimpleRequest{ResponseSize: 1})
	stream, _ := client.FullDuplexCall(ctx)
	stream.CloseSend()
	stream.Recv()

	fams := scrape(t, m)
	unary := map[string]string{"grpc_service": "grpc.testing.TestService", "grpc_method": "UnaryCall", "grpc_type": "unary"}
	wantCounter(t, fams, "grpc_server_handled_total", with(unary, "grpc_code", "OK"), 3)
	wantCounter(t, fams, "grpc_server_handled_total", with(unary, "grpc_code", "NotFound"), 1)
	wantCounter(t, fams, "grpc_server_started_total", unary, 4)
	wantCounter(t, fams, "grpc_server_handled_total", map[string]string{"grpc_method": "FullDuplexCall", "grpc_type": "bidi_stream", "grpc_code": "OK"}, 1)
	h := sample(fams["grpc_server_handling_seconds"], unary)
	if h == nil || h.GetHistogram().GetSampleCount() != 4 {
		t.Errorf("grpc_server_handling_seconds %v: want 4 unary samples", h)
	}
	if fams["go_goroutines"] == nil {
		t.Error("runtime collectors missing")
	}
}

func with(labels map[string]string, k, v string) map[string]string {
	out := map[string]string{k: v}
	for k, v := range labels {
		out[k] = v
	}
	return out
}

func wantCounter(t *testing.T, fams map[string]*dto.MetricFamily, name string, labels map[string]string, want float64) {
	t.Helper()
	fam := fams[name]
	if fam == nil {
		t.Fatalf("no %s", name)
	}
	m := sample(fam, labels)
	if m == nil || m.GetCounter().GetValue() != want {
		t.Errorf("%s%v = %v, want %v", name, labels, m.GetCounter().GetValue(), want)
	}
}

func TestMetricsClient(t *testing.T) {
	m := interceptor.NewMetrics(interceptor.MetricsOptions{NoRuntime: true})
	svc := &testService{unary: func(context.Context, *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
		return nil, status.Error(codes.Unavailable, "down")
	}}
	opts, err := interceptor.ClientChain(interceptor.ClientChainOptions{Metrics: m})
	if err != nil {
		t.Fatal(err)
	}
	client := dial(t, serve(t, svc), opts...)
	client.UnaryCall(testContext(t), &testgrpc.SimpleRequest{})
	fams := scrape(t, m)
	wantCounter(t, fams, "grpc_client_handled_total", map[string]string{"grpc_method": "UnaryCall", "grpc_code": "Unavailable"}, 1)
	if fams["go_goroutines"] != nil {
		t.Error("NoRuntime still exports go_goroutines")
	}
}

// TestMetricsGaugeFunc: a gauge reports f's value at each scrape; a taken
// or invalid name is refused.
func TestMetricsGaugeFunc(t *testing.T) {
	m := interceptor.NewMetrics(interceptor.MetricsOptions{NoRuntime: true})
	v := 0.0
	if err := m.GaugeFunc("test_state", "A state.", func() float64 { return v }); err != nil {
		t.Fatal(err)
	}
	for _, want := range []float64{0, 1} {
		v = want
		fam := scrape(t, m)["test_state"]
		if got := fam.GetMetric()[0].GetGauge().GetValue(); got != want {
			t.Errorf("test_state = %v, want %v", got, want)
		}
	}
	for _, name := range []string{"test_state", "grpc_server_started_total", ""} {
		if err := m.GaugeFunc(name, "Again.", func() float64 { return 0 }); err == nil || !strings.HasPrefix(err.Error(), "interceptor: gauge "+name) {
			t.Errorf("GaugeFunc(%q) = %v, want an interceptor: gauge error", name, err)
		}
	}
}
