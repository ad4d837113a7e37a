// Package promscrape scrapes a service's Prometheus metrics endpoint while
// a load test runs and sums up what it reported over a span of the run:
// the process's CPU, resident memory, goroutines and GC pauses, the
// service's own handling latency (grpc_server_handling_seconds, or a
// gateway's rpckit_gateway_request_duration_seconds when there is none)
// and any metric asked for by name. It is bench's --target-metrics.
//
// Scrapes are bounded: each has a timeout and a body size limit, and the
// scraper stops with its context or Stop. A scrape that fails is kept and
// counted, never dropped. Bodies are parsed in the Prometheus text format
// with github.com/prometheus/common/expfmt; only the few series the
// summaries need are kept of each scrape.
package promscrape
