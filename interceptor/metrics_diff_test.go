package interceptor_test

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"

	grpcprom "github.com/grpc-ecosystem/go-grpc-middleware/providers/prometheus"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/rpckit/rpckit/interceptor"
	testv1 "github.com/rpckit/rpckit/internal/gen/rpckit/test/v1"
	"github.com/rpckit/rpckit/internal/rpctest"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
)

// TestMetricsMatchGoGRPCMiddleware runs the same calls of every kind, with
// successes and failures, through Metrics and through go-grpc-middleware's
// Prometheus provider, and compares what Prometheus would scrape from
// both: the same families, help texts, label sets and counts.
func TestMetricsMatchGoGRPCMiddleware(t *testing.T) {
	ours := interceptor.NewMetrics(interceptor.MetricsOptions{NoRuntime: true})
	oursSrv := grpc.NewServer(grpc.ChainUnaryInterceptor(ours.UnaryServer()), grpc.ChainStreamInterceptor(ours.StreamServer()))
	testv1.RegisterTestServer(oursSrv, rpctest.Service{})
	ours.InitializeServer(oursSrv)
	runKinds(t, oursSrv, grpc.WithChainUnaryInterceptor(ours.UnaryClient()), grpc.WithChainStreamInterceptor(ours.StreamClient()))

	reg := prometheus.NewRegistry()
	sm := grpcprom.NewServerMetrics(grpcprom.WithServerHandlingTimeHistogram())
	cm := grpcprom.NewClientMetrics(grpcprom.WithClientHandlingTimeHistogram())
	reg.MustRegister(sm, cm)
	theirSrv := grpc.NewServer(grpc.ChainUnaryInterceptor(sm.UnaryServerInterceptor()), grpc.ChainStreamInterceptor(sm.StreamServerInterceptor()))
	testv1.RegisterTestServer(theirSrv, rpctest.Service{})
	sm.InitializeMetrics(theirSrv)
	runKinds(t, theirSrv, grpc.WithChainUnaryInterceptor(cm.UnaryClientInterceptor()), grpc.WithChainStreamInterceptor(cm.StreamClientInterceptor()))

	got := scrapeText(t, ours.Handler().ServeHTTP)
	want := scrapeText(t, promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}).ServeHTTP)
	if got != want {
		t.Errorf("metrics differ from go-grpc-middleware's\n--- ours\n%s\n--- go-grpc-middleware\n%s", got, want)
	}
	if !strings.Contains(got, `grpc_server_handled_total{grpc_code="NotFound",grpc_method="Echo",grpc_service="rpckit.test.v1.Test",grpc_type="unary"} 1`) {
		t.Errorf("the scenario's NotFound is missing:\n%s", got)
	}
}

// runKinds serves srv on loopback and makes calls of every kind, with
// successes and failures, with client options copts.
func runKinds(t *testing.T, srv *grpc.Server, copts ...grpc.DialOption) {
	t.Helper()
	conn, err := grpc.NewClient(serveServer(t, srv),
		append([]grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}, copts...)...)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	client := testv1.NewTestClient(conn)
	ctx := testContext(t)
	notFound := int32(codes.NotFound)
	for _, fail := range []int32{0, 0, 0, notFound} {
		if _, err := client.Echo(ctx, &testv1.EchoRequest{FailCode: fail}); status.Code(err) != codes.Code(fail) {
			t.Fatalf("Echo: %v", err)
		}
	}
	for _, fail := range []int32{0, notFound} {
		ss, err := client.Count(ctx, &testv1.CountRequest{Count: 3, FailCode: fail, FailAfter: 2})
		if err != nil {
			t.Fatal(err)
		}
		for {
			if _, err := ss.Recv(); err != nil {
				break
			}
		}
	}
	cs, err := client.Sum(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		if err := cs.Send(&testv1.EchoRequest{Number: int64(i)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := cs.CloseAndRecv(); err != nil {
		t.Fatal(err)
	}
	for _, fail := range []int32{0, notFound} {
		bs, err := client.Chat(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if err := bs.Send(&testv1.EchoRequest{}); err != nil {
				t.Fatal(err)
			}
			if _, err := bs.Recv(); err != nil {
				t.Fatal(err)
			}
		}
		if fail != 0 {
			bs.Send(&testv1.EchoRequest{FailCode: fail})
		}
		bs.CloseSend()
		for {
			if _, err := bs.Recv(); err != nil {
				break
			}
		}
	}
}

func serveServer(t *testing.T, srv *grpc.Server) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(lis)
	t.Cleanup(srv.Stop)
	return lis.Addr().String()
}

// scrapeText scrapes a metrics handler and prints its families in a
// stable form, with histograms as their sample counts and bucket bounds
// (the times themselves differ from run to run).
func scrapeText(t *testing.T, serve func(w http.ResponseWriter, r *http.Request)) string {
	t.Helper()
	rec := httptest.NewRecorder()
	serve(rec, httptest.NewRequest("GET", "/metrics", nil))
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for name, fam := range fams {
		lines = append(lines, fmt.Sprintf("# %s %s %s", name, fam.GetType(), fam.GetHelp()))
		for _, m := range fam.GetMetric() {
			lines = append(lines, name+labelText(m.GetLabel())+" "+valueText(m))
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func labelText(lps []*dto.LabelPair) string {
	var parts []string
	for _, lp := range lps {
		parts = append(parts, fmt.Sprintf("%s=%q", lp.GetName(), lp.GetValue()))
	}
	sort.Strings(parts)
	return "{" + strings.Join(parts, ",") + "}"
}

func valueText(m *dto.Metric) string {
	if h := m.GetHistogram(); h != nil {
		var bounds []string
		for _, b := range h.GetBucket() {
			bounds = append(bounds, fmt.Sprint(b.GetUpperBound()))
		}
		return fmt.Sprintf("count=%d buckets=%s", h.GetSampleCount(), strings.Join(bounds, ","))
	}
	return fmt.Sprint(m.GetCounter().GetValue())
}
