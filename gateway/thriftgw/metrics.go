package thriftgw

import (
	"strconv"
	"time"

	"github.com/rpckit/rpckit/internal/gwmetrics"
)

// metricsPath is where Options.Metrics serves them.
const metricsPath = gwmetrics.Path

// observe records a request in the gateway's metrics (internal/gwmetrics),
// named as the gRPC gateway's:
//
//	rpckit_gateway_requests_total{protocol="thrift", route, code}
//	rpckit_gateway_request_duration_seconds{protocol="thrift", route}
//
// route is the route's method and path ("GET /v1/medium/:id"), or "none"
// when no route matched; code is the HTTP status.
func observe(m *gwmetrics.Metrics, route *Route, code int, d time.Duration) {
	name := "none"
	if route != nil {
		name = route.Method + " " + route.Path
	}
	m.Observe("thrift", name, strconv.Itoa(code), d)
}
