package interceptor_test

import (
	"context"
	"fmt"
	"io"
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
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/status"
)

// kindsService serves the four call kinds; a request with ResponseStatus
// set fails with that code (streams after the messages before it).
type kindsService struct {
	testgrpc.UnimplementedTestServiceServer
}

func fail(s *testgrpc.EchoStatus) error {
	if s == nil || s.GetCode() == 0 {
		return nil
	}
	return status.Error(codes.Code(s.GetCode()), s.GetMessage())
}

func (kindsService) UnaryCall(_ context.Context, req *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
	if err := fail(req.GetResponseStatus()); err != nil {
		return nil, err
	}
	return &testgrpc.SimpleResponse{}, nil
}

func (kindsService) StreamingOutputCall(req *testgrpc.StreamingOutputCallRequest, ss testgrpc.TestService_StreamingOutputCallServer) error {
	for range req.GetResponseParameters() {
		if err := ss.Send(&testgrpc.StreamingOutputCallResponse{}); err != nil {
			return err
		}
	}
	return fail(req.GetResponseStatus())
}

func (kindsService) StreamingInputCall(ss testgrpc.TestService_StreamingInputCallServer) error {
	n := 0
	for {
		_, err := ss.Recv()
		if err == io.EOF {
			return ss.SendAndClose(&testgrpc.StreamingInputCallResponse{AggregatedPayloadSize: int32(n)})
		}
		if err != nil {
			return err
		}
		n++
	}
}

func (kindsService) FullDuplexCall(ss testgrpc.TestService_FullDuplexCallServer) error {
	for {
		req, err := ss.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := fail(req.GetResponseStatus()); err != nil {
			return err
		}
		if err := ss.Send(&testgrpc.StreamingOutputCallResponse{}); err != nil {
			return err
		}
	}
}

// TestMetricsMatchGoGRPCMiddleware runs the same calls of every kind, with
// successes and failures, through Metrics and through go-grpc-middleware's
// Prometheus provider, and compares what Prometheus would scrape from
// both: the same families, help texts, label sets and counts.
func TestMetricsMatchGoGRPCMiddleware(t *testing.T) {
	ours := interceptor.NewMetrics(interceptor.MetricsOptions{NoRuntime: true})
	oursSrv := grpc.NewServer(grpc.ChainUnaryInterceptor(ours.UnaryServer()), grpc.ChainStreamInterceptor(ours.StreamServer()))
	testgrpc.RegisterTestServiceServer(oursSrv, kindsService{})
	ours.InitializeServer(oursSrv)
	runKinds(t, oursSrv, grpc.WithChainUnaryInterceptor(ours.UnaryClient()), grpc.WithChainStreamInterceptor(ours.StreamClient()))

	reg := prometheus.NewRegistry()
	sm := grpcprom.NewServerMetrics(grpcprom.WithServerHandlingTimeHistogram())
	cm := grpcprom.NewClientMetrics(grpcprom.WithClientHandlingTimeHistogram())
	reg.MustRegister(sm, cm)
	theirSrv := grpc.NewServer(grpc.ChainUnaryInterceptor(sm.UnaryServerInterceptor()), grpc.ChainStreamInterceptor(sm.StreamServerInterceptor()))
	testgrpc.RegisterTestServiceServer(theirSrv, kindsService{})
	sm.InitializeMetrics(theirSrv)
	runKinds(t, theirSrv, grpc.WithChainUnaryInterceptor(cm.UnaryClientInterceptor()), grpc.WithChainStreamInterceptor(cm.StreamClientInterceptor()))

	got := scrapeText(t, ours.Handler().ServeHTTP)
	want := scrapeText(t, promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}).ServeHTTP)
	if got != want {
		t.Errorf("metrics differ from go-grpc-middleware's\n--- ours\n%s\n--- go-grpc-middleware\n%s", got, want)
	}
	if !strings.Contains(got, `grpc_server_handled_total{grpc_code="NotFound",grpc_method="UnaryCall",grpc_service="grpc.testing.TestService",grpc_type="unary"} 1`) {
		t.Errorf("the scenario's NotFound is missing:\n%s", got)
	}
}

// runKinds serves srv on loopback and makes calls of every kind with
// client options copts.
func runKinds(t *testing.T, srv *grpc.Server, copts ...grpc.DialOption) {
	t.Helper()
	addr := serveServer(t, srv)
	client := dial(t, addr, copts...)
	ctx := testContext(t)
	notFound := &testgrpc.EchoStatus{Code: int32(codes.NotFound), Message: "no"}
	for range 3 {
		if _, err := client.UnaryCall(ctx, &testgrpc.SimpleRequest{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := client.UnaryCall(ctx, &testgrpc.SimpleRequest{ResponseStatus: notFound}); status.Code(err) != codes.NotFound {
		t.Fatal(err)
	}
	for _, st := range []*testgrpc.EchoStatus{nil, notFound} {
		ss, err := client.StreamingOutputCall(ctx, &testgrpc.StreamingOutputCallRequest{
			ResponseParameters: make([]*testgrpc.ResponseParameters, 3), ResponseStatus: st})
		if err != nil {
			t.Fatal(err)
		}
		for {
			if _, err := ss.Recv(); err != nil {
				break
			}
		}
	}
	cs, err := client.StreamingInputCall(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for range 4 {
		if err := cs.Send(&testgrpc.StreamingInputCallRequest{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := cs.CloseAndRecv(); err != nil {
		t.Fatal(err)
	}
	for _, st := range []*testgrpc.EchoStatus{nil, notFound} {
		bs, err := client.FullDuplexCall(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if err := bs.Send(&testgrpc.StreamingOutputCallRequest{}); err != nil {
				t.Fatal(err)
			}
			if _, err := bs.Recv(); err != nil {
				t.Fatal(err)
			}
		}
		if st != nil {
			bs.Send(&testgrpc.StreamingOutputCallRequest{ResponseStatus: st})
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
