package main

import (
	"fmt"

	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/stat"
	"github.com/grafana/grafana-foundation-sdk/go/timeseries"
)

// serviceMatch selects the series of the dashboard's job, instance and
// service variables.
var serviceMatch = matchers(`job=~"$job"`, `instance=~"$instance"`, `grpc_service=~"$service"`)

// serviceDashboard is the server side of rpckit services: traffic, errors,
// latency, calls in flight, drain state and the SLO's burn rates.
func serviceDashboard() *builder {
	return newDashboard("rpckit-service", "rpckit / service",
		"gRPC services on rpckit's server package (rpckit serve, services made by rpckit new): "+
			"the server's grpc_server_* metrics and drain state, and the burn rates of "+
			"deploy/prometheus/rpckit-slo.yaml.").
		WithVariable(labelVariable("job", "job", "grpc_server_started_total", "")).
		WithVariable(labelVariable("instance", "instance", "grpc_server_started_total", `job=~"$job"`)).
		WithVariable(labelVariable("service", "grpc_service", "grpc_server_started_total",
			matchers(`job=~"$job"`, `instance=~"$instance"`))).
		WithRow(dashboard.NewRowBuilder("Traffic")).
		WithPanel(requestsPanel()).
		WithPanel(errorsByCodePanel()).
		WithRow(dashboard.NewRowBuilder("Latency (unary calls)")).
		WithPanel(graph("Latency", "Quantiles of the time to handle a unary call, on the server.", "s",
			latencyQueries(handlingBuckets(), "", "")...)).
		WithPanel(graph("p99 latency by method", "The 99th percentile of each method's unary calls.", "s",
			latencyQueries(handlingBuckets(), "grpc_service, grpc_method", " {{grpc_service}}/{{grpc_method}}")[2])).
		WithRow(dashboard.NewRowBuilder("Instances")).
		WithPanel(inFlightPanel()).
		WithPanel(drainingPanel()).
		WithRow(dashboard.NewRowBuilder("Objectives: 99.9% of calls succeed, 99% of unary calls within 200 ms")).
		WithPanel(burnPanel("Error budget burn rate",
			"How fast failures (codes "+errorCodes+") spend the error budget: 1 spends it in exactly 30 days; "+
				"the fast-burn alert fires above 14.4 (1 h) or 6 (6 h).",
			errorRatio, errorBudget)).
		WithPanel(burnPanel("Latency budget burn rate",
			"How fast unary calls slower than 200 ms spend the latency budget (1% of calls): "+
				"1 spends it in exactly 30 days; the fast-burn alert fires above 14.4 (1 h) or 6 (6 h).",
			slowRatio, slowBudget))
}

func handlingBuckets() string {
	return "grpc_server_handling_seconds_bucket{" + matchers(serviceMatch, `grpc_type="unary"`) + "}"
}

func requestsPanel() *timeseries.PanelBuilder {
	return graph("Requests", "Calls completed per second, by method.", "reqps", query{
		expr:   "sum by (grpc_service, grpc_method) (" + rate("grpc_server_handled_total{"+serviceMatch+"}") + ")",
		legend: "{{grpc_service}}/{{grpc_method}}",
	})
}

func errorsByCodePanel() *timeseries.PanelBuilder {
	return graph("Errors by code", "Calls completed per second with a code other than OK, by code "+
		"(the error objective counts "+errorCodes+").", "reqps", query{
		expr:   "sum by (grpc_code) (" + rate("grpc_server_handled_total{"+matchers(serviceMatch, `grpc_code!="OK"`)+"}") + ")",
		legend: "{{grpc_code}}",
	})
}

func inFlightPanel() *timeseries.PanelBuilder {
	started := "sum by (instance) (grpc_server_started_total{" + serviceMatch + "})"
	handled := "sum by (instance) (grpc_server_handled_total{" + serviceMatch + "})"
	return graph("In flight", "Calls and streams started and not yet completed, by instance.", "short",
		query{expr: started + " - " + handled, legend: "{{instance}}"})
}

func drainingPanel() *stat.PanelBuilder {
	return state("Drain state", "Whether each instance is serving or has begun to shut down "+
		"(health NOT_SERVING, draining in-flight calls): rpckit_server_draining.",
		query{expr: `max by (instance) (rpckit_server_draining{job=~"$job",instance=~"$instance"})`, legend: "{{instance}}"},
		[]stateText{{"serving", "green"}, {"draining", "orange"}})
}

// burnPanel draws the ratio of ratioName over each burn window divided by
// the budget: the rate at which the budget is spent.
func burnPanel(title, description string, ratioName func(string) string, budget float64) *timeseries.PanelBuilder {
	var qs []query
	for _, w := range burnWindows {
		qs = append(qs, query{
			expr:   fmt.Sprintf(`%s{job=~"$job",grpc_service=~"$service"} / %g`, ratioName(w), budget),
			legend: w + " {{job}} {{grpc_service}}",
		})
	}
	return withLimit(graph(title, description, "short", qs...), 1)
}
