package gateway

import "github.com/rpckit/rpckit/internal/gwmetrics"

// metricsPath is where Options.Metrics serves them.
const metricsPath = gwmetrics.Path

// The protocol label of the metrics.
const (
	protocolREST    = "rest"
	protocolGRPCWeb = "grpc-web"
	protocolConnect = "connect"
)

// routeLabel is a route's label in the gateway's metrics (internal/gwmetrics):
//
//	rpckit_gateway_requests_total{protocol, route, code}
//	rpckit_gateway_request_duration_seconds{protocol, route}
//
// route is the route's method and template ("GET /v1/{name=items/*}"), or
// "none" when no route matched; code is the HTTP status for REST and the
// gRPC status name (OK, NotFound, ...) for gRPC-Web and Connect, whose
// HTTP status is 200 whatever happens (gRPC-Web, Connect streams).
func routeLabel(route *Route) string {
	if route == nil {
		return "none"
	}
	return route.HTTPMethod + " " + route.Template.String()
}
