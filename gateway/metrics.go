package gateway

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metricsPath is where Options.Metrics serves them.
const metricsPath = "/metrics"

// The protocol label of the metrics.
const (
	protocolREST    = "rest"
	protocolGRPCWeb = "grpc-web"
	protocolConnect = "connect"
)

// metrics are the gateway's Prometheus metrics, in a registry of its own:
//
//	rpckit_gateway_requests_total{protocol, route, code}
//	rpckit_gateway_request_duration_seconds{protocol, route}
//
// route is the route's method and template ("GET /v1/{name=items/*}"), or
// "none" when no route matched; code is the HTTP status for REST and the
// gRPC status name (OK, NotFound, ...) for gRPC-Web and Connect, whose
// HTTP status is 200 whatever happens (gRPC-Web, Connect streams).
type metrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	handler  http.Handler
}

func newMetrics() *metrics {
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "rpckit_gateway_requests_total",
			Help: "HTTP requests served by the gateway, by protocol, route and status code.",
		}, []string{"protocol", "route", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "rpckit_gateway_request_duration_seconds",
			Help:    "Time from request to the end of the response, by protocol and route.",
			Buckets: prometheus.DefBuckets,
		}, []string{"protocol", "route"}),
	}
	reg := prometheus.NewRegistry()
	// MustRegister cannot fail: the registry is new and the names distinct.
	reg.MustRegister(m.requests, m.duration)
	m.handler = promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg})
	return m
}

func (m *metrics) observe(route *Route, protocol, code string, d time.Duration) {
	name := "none"
	if route != nil {
		name = route.HTTPMethod + " " + route.Template.String()
	}
	m.requests.WithLabelValues(protocol, name, code).Inc()
	m.duration.WithLabelValues(protocol, name).Observe(d.Seconds())
}
