package interceptor

import (
	"net/http"

	grpcprom "github.com/grpc-ecosystem/go-grpc-middleware/providers/prometheus"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"google.golang.org/grpc"
)

// MetricsOptions configures Metrics. The zero value uses Prometheus's
// default latency buckets and includes the Go runtime and process
// collectors.
type MetricsOptions struct {
	// Buckets are the latency histogram bounds in seconds.
	Buckets []float64
	// NoRuntime leaves out the go_* and process_* collectors.
	NoRuntime bool
}

// Metrics holds Prometheus metrics for gRPC servers and clients in a
// registry of its own, under go-grpc-middleware's standard names:
// grpc_server_started_total, grpc_server_handled_total,
// grpc_server_msg_received_total, grpc_server_msg_sent_total,
// grpc_server_handling_seconds, and their grpc_client_* counterparts.
// Handler serves them in the Prometheus text format.
type Metrics struct {
	reg    *prometheus.Registry
	server *grpcprom.ServerMetrics
	client *grpcprom.ClientMetrics
}

// NewMetrics returns metrics in a fresh registry.
func NewMetrics(opts MetricsOptions) *Metrics {
	buckets := opts.Buckets
	if len(buckets) == 0 {
		buckets = prometheus.DefBuckets
	}
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		server: grpcprom.NewServerMetrics(grpcprom.WithServerHandlingTimeHistogram(
			grpcprom.WithHistogramBuckets(buckets))),
		client: grpcprom.NewClientMetrics(grpcprom.WithClientHandlingTimeHistogram(
			grpcprom.WithHistogramBuckets(buckets))),
	}
	// MustRegister cannot fail: the registry is new and the collectors'
	// metric names are distinct.
	m.reg.MustRegister(m.server, m.client)
	if !opts.NoRuntime {
		m.reg.MustRegister(collectors.NewGoCollector(),
			collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	}
	return m
}

// Handler serves the metrics in the Prometheus exposition format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// InitializeServer creates the zero-valued series of every method
// registered on srv, so dashboards see them before the first call.
// Call it after registering the services.
func (m *Metrics) InitializeServer(srv *grpc.Server) { m.server.InitializeMetrics(srv) }

// UnaryServer counts and times unary calls on the server.
func (m *Metrics) UnaryServer() grpc.UnaryServerInterceptor { return m.server.UnaryServerInterceptor() }

// StreamServer counts and times streams and their messages on the server.
func (m *Metrics) StreamServer() grpc.StreamServerInterceptor {
	return m.server.StreamServerInterceptor()
}

// UnaryClient counts and times unary calls made by a client.
func (m *Metrics) UnaryClient() grpc.UnaryClientInterceptor { return m.client.UnaryClientInterceptor() }

// StreamClient counts and times streams opened by a client.
func (m *Metrics) StreamClient() grpc.StreamClientInterceptor {
	return m.client.StreamClientInterceptor()
}
