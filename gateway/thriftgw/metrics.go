package thriftgw

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metricsPath is where Options.Metrics serves them.
const metricsPath = "/metrics"

// metrics are the gateway's Prometheus metrics, in a registry of its own,
// named as the gRPC gateway's:
//
//	rpckit_gateway_requests_total{protocol="thrift", route, code}
//	rpckit_gateway_request_duration_seconds{protocol="thrift", route}
//
// route is the route's method and path ("GET /v1/medium/:id"), or "none"
// when no route matched; code is the HTTP status.
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

func (m *metrics) observe(route *Route, code int, d time.Duration) {
	name := "none"
	if route != nil {
		name = route.Method + " " + route.Path
	}
	m.requests.WithLabelValues("thrift", name, strconv.Itoa(code)).Inc()
	m.duration.WithLabelValues("thrift", name).Observe(d.Seconds())
}
