// Package report renders load Results: a console summary in the shape of
// ghz's with wrk2's detailed percentile spectrum, JSON, CSV, HdrHistogram
// interval logs (written, read and merged), SLO verdicts with the capacity
// and knee of a ramp, side-by-side comparisons, and a self-contained HTML
// page with plots comparing several runs (WriteHTML). A run of several flows
// (load.Scenario) renders as each flow with its own SLO and their total,
// in text (WriteFlowsText), JSON (JSONOptions.WriteFlows), CSV
// (CSVOptions.WriteFlows) and HTML (a Run per flow). Prometheus metrics
// come in the text format or OpenMetrics with the time series
// (MetricsOptions.WriteMetrics, WriteFlowsMetrics). Every rendering
// counts failed calls apart: never in rates or in the latency figures of
// successful calls. The JSON form is versioned (JSONSchema). UPlot gives
// the page's plotting library as files, for pages (the ui's) that serve it.
//
// Units: JSON and CSV give durations as float milliseconds, in fields and
// columns named with an "_ms" suffix, and rates as calls per second
// ("_rps"). HdrHistogram logs hold microsecond values, as wrk2's do, with
// each interval's max in milliseconds. Metrics are in seconds, as
// Prometheus names them.
//
// report may import the standard library, rpckit's load package and
// hdrhistogram-go; its exported API uses standard library and load types
// only.
package report
