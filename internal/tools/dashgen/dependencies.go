package main

import (
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/stat"
	"github.com/grafana/grafana-foundation-sdk/go/timeseries"
)

// clientMatch selects the series of the dashboard's job, instance and
// upstream variables.
var clientMatch = matchers(`job=~"$job"`, `instance=~"$instance"`, `grpc_service=~"$upstream"`)

// dependenciesDashboard is the client side of a process's calls (the
// gateway's to its upstream, say), per upstream service: rate, errors,
// latency, retries and circuit breaker state.
func dependenciesDashboard() *builder {
	return newDashboard("rpckit-dependencies", "rpckit / dependencies",
		"The gRPC services a process calls (rpckit gateway's upstream, clients with rpckit's "+
			"client interceptors): grpc_client_* metrics, retries and circuit breaker state, per upstream service.").
		WithVariable(labelVariable("job", "job", "grpc_client_started_total", "")).
		WithVariable(labelVariable("instance", "instance", "grpc_client_started_total", `job=~"$job"`)).
		WithVariable(labelVariable("upstream", "grpc_service", "grpc_client_started_total",
			matchers(`job=~"$job"`, `instance=~"$instance"`))).
		WithRow(dashboard.NewRowBuilder("Calls")).
		WithPanel(graph("Requests", "Calls completed per second, by upstream service.", "reqps", query{
			expr:   "sum by (grpc_service) (" + rate("grpc_client_handled_total{"+clientMatch+"}") + ")",
			legend: "{{grpc_service}}",
		})).
		WithPanel(clientErrorsPanel()).
		WithPanel(graph("Latency", "Quantiles of a call's time as the client sees it, retries included, by upstream service.", "s",
			latencyQueries("grpc_client_handling_seconds_bucket{"+clientMatch+"}", "grpc_service", " {{grpc_service}}")...)).
		WithRow(dashboard.NewRowBuilder("Policies")).
		WithPanel(retriesPanel()).
		WithPanel(breakerPanel())
}

// retriesPanel draws retry attempts per upstream service: 0, not a gap,
// while there are calls and none retried (the counter appears with the
// first retry).
func retriesPanel() *timeseries.PanelBuilder {
	retries := "sum by (grpc_service) (" + rate("rpckit_client_retries_total{"+clientMatch+"}") + ")"
	calls := "sum by (grpc_service) (" + rate("grpc_client_started_total{"+clientMatch+"}") + ")"
	return graph("Retries", "Attempts per second after a call's first (retries and hedges), by upstream service.", "reqps", query{
		expr:   retries + " or " + calls + " * 0",
		legend: "{{grpc_service}}",
	})
}

// clientErrorsPanel draws the share of calls that ended with a code other
// than OK, by upstream: 0, not a gap, while none fail.
func clientErrorsPanel() *timeseries.PanelBuilder {
	all := "sum by (grpc_service) (" + rate("grpc_client_handled_total{"+clientMatch+"}") + ")"
	failed := "sum by (grpc_service) (" + rate("grpc_client_handled_total{"+matchers(clientMatch, `grpc_code!="OK"`)+"}") + ")"
	return graph("Errors", "The share of calls that ended with a code other than OK, by upstream service.", "percentunit", query{
		expr:   "(" + failed + " or " + all + " * 0) / " + all,
		legend: "{{grpc_service}}",
	})
}

func breakerPanel() *stat.PanelBuilder {
	return state("Circuit breaker", "The state of the client's circuit breaker of each method of an upstream "+
		"(rpckit_client_breaker_state, with --breaker): closed lets calls through, open fails them at once, "+
		"half-open lets a few try.",
		query{
			expr:   "max by (upstream, grpc_service, grpc_method) (rpckit_client_breaker_state{" + clientMatch + "})",
			legend: "{{grpc_service}}/{{grpc_method}} at {{upstream}}",
		},
		[]stateText{{"closed", "green"}, {"open", "red"}, {"half-open", "orange"}})
}
