package promscrape

import (
	"math"
	"strings"
	"testing"
)

const exposition = `# HELP go_gc_duration_seconds A summary of the wall-time pause (stop-the-world) duration in garbage collection cycles.
# TYPE go_gc_duration_seconds summary
go_gc_duration_seconds{quantile="0"} 1.5e-05
go_gc_duration_seconds{quantile="1"} 0.0003
go_gc_duration_seconds_sum 0.0125
go_gc_duration_seconds_count 40
# TYPE go_goroutines gauge
go_goroutines 17
# TYPE process_cpu_seconds_total counter
process_cpu_seconds_total 3.25
# TYPE process_resident_memory_bytes gauge
process_resident_memory_bytes 2.4e+07
# TYPE grpc_server_handling_seconds histogram
grpc_server_handling_seconds_bucket{grpc_method="Get",grpc_service="a.S",grpc_type="unary",le="0.001"} 80
grpc_server_handling_seconds_bucket{grpc_method="Get",grpc_service="a.S",grpc_type="unary",le="0.01"} 100
grpc_server_handling_seconds_bucket{grpc_method="Get",grpc_service="a.S",grpc_type="unary",le="+Inf"} 100
grpc_server_handling_seconds_sum{grpc_method="Get",grpc_service="a.S",grpc_type="unary"} 0.05
grpc_server_handling_seconds_count{grpc_method="Get",grpc_service="a.S",grpc_type="unary"} 100
grpc_server_handling_seconds_bucket{grpc_method="Put",grpc_service="a.S",grpc_type="unary",le="0.001"} 0
grpc_server_handling_seconds_bucket{grpc_method="Put",grpc_service="a.S",grpc_type="unary",le="0.01"} 10
grpc_server_handling_seconds_bucket{grpc_method="Put",grpc_service="a.S",grpc_type="unary",le="+Inf"} 20
grpc_server_handling_seconds_sum{grpc_method="Put",grpc_service="a.S",grpc_type="unary"} 1
grpc_server_handling_seconds_count{grpc_method="Put",grpc_service="a.S",grpc_type="unary"} 20
# TYPE app_queue gauge
app_queue{shard="1"} 3
app_queue{shard="2"} 4
`

func TestParse(t *testing.T) {
	s, err := parse(strings.NewReader(exposition), []string{"app_queue", "absent"})
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, got value, want float64) {
		t.Helper()
		if !got.ok || got.v != want {
			t.Errorf("%s = %+v, want %g", name, got, want)
		}
	}
	check("cpu", s.cpu, 3.25)
	check("rss", s.rss, 2.4e7)
	check("goroutines", s.goroutines, 17)
	check("gc sum", s.gcSum, 0.0125)
	check("gc count", s.gcCount, 40)
	if got := s.all.counts; len(got) != 3 || got[0] != 80 || got[1] != 110 || got[2] != 120 {
		t.Errorf("all methods' buckets = %v, want [80 110 120]", got)
	}
	if len(s.methods) != 2 || s.methods["a.S/Put"].total() != 20 {
		t.Errorf("methods = %v, want a.S/Get and a.S/Put with 20 calls", s.methods)
	}
	if n, ok := s.named["app_queue"]; !ok || n.kind != "gauge" || n.value != 7 {
		t.Errorf("app_queue = %+v, want the gauge summed to 7", n)
	}
	if _, ok := s.named["absent"]; ok {
		t.Error("a metric the body lacks was found")
	}
}

func TestParseError(t *testing.T) {
	_, err := parse(strings.NewReader("# TYPE a counter\na 1\nthis is not a metric\n"), nil)
	if err == nil || !strings.HasPrefix(err.Error(), "line 3: ") {
		t.Fatalf("err = %v, want one naming line 3", err)
	}
}

func TestQuantile(t *testing.T) {
	h := &hist{bounds: []float64{0.001, 0.01, math.Inf(1)}, counts: []float64{80, 100, 100}}
	for _, c := range []struct{ q, want float64 }{
		{0.5, 0.001 * 50 / 80},          // within the first bucket, from 0
		{0.9, 0.001 + 0.009*(90-80)/20}, // within the second
		{1, 0.01},
	} {
		if got := h.quantile(c.q); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("quantile(%g) = %g, want %g", c.q, got, c.want)
		}
	}
	h.counts = []float64{0, 10, 20} // half the calls above the last finite bound
	if got := h.quantile(0.99); got != 0.01 {
		t.Errorf("quantile in +Inf = %g, want the highest finite bound", got)
	}
	if got := (&hist{bounds: []float64{1, math.Inf(1)}, counts: []float64{0, 0}}).quantile(0.5); !math.IsNaN(got) {
		t.Errorf("empty quantile = %g, want NaN", got)
	}
}

// TestParseGateway: a gateway's request duration is its handling time,
// by protocol and route, when no gRPC server's is there.
func TestParseGateway(t *testing.T) {
	body := `# TYPE rpckit_gateway_request_duration_seconds histogram
rpckit_gateway_request_duration_seconds_bucket{protocol="rest",route="POST /v1/rank",le="0.001"} 4
rpckit_gateway_request_duration_seconds_bucket{protocol="rest",route="POST /v1/rank",le="+Inf"} 5
rpckit_gateway_request_duration_seconds_sum{protocol="rest",route="POST /v1/rank"} 0.01
rpckit_gateway_request_duration_seconds_count{protocol="rest",route="POST /v1/rank"} 5
`
	s, err := parse(strings.NewReader(body), nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.all.total() != 5 || s.methods["rest POST /v1/rank"].total() != 5 {
		t.Errorf("all %v, methods %v: want the route's 5 requests", s.all, s.methods)
	}
}
