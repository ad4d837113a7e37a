package load

import "time"

// ServerStats are what the service's own metrics endpoint reported over a
// result's time, beside the client's view: the server's CPU, memory,
// goroutines, garbage collection and handling latency. Load does not fill
// them; the caller scrapes the endpoint while the run goes on and sets
// Result.Server, one per endpoint. A figure the endpoint did not report
// is zero, with its Has flag false.
type ServerStats struct {
	URL string
	// Scrapes counts the scrapes over the result's time (for a whole run,
	// every scrape); Failed those that failed, FirstError the first
	// failure's text.
	Scrapes, Failed int
	FirstError      string

	// Span is the time the CPU, GC and latency deltas cover: the result's
	// measured time when scrapes bracket it.
	Span time.Duration
	// CPU is the server process's CPU time over Span
	// (process_cpu_seconds_total).
	CPU    time.Duration
	HasCPU bool
	// MaxRSS is the highest resident memory seen, bytes
	// (process_resident_memory_bytes); MaxGoroutines the highest
	// go_goroutines.
	MaxRSS, MaxGoroutines int64
	HasRSS, HasGoroutines bool
	// GCs and GCPause are the collections and their summed pauses over
	// Span (go_gc_duration_seconds count and sum).
	GCs     int64
	GCPause time.Duration
	HasGC   bool
	// Latency is the service's own handling time
	// (grpc_server_handling_seconds) over Span: all methods first, under
	// Method "", then each method that served calls.
	Latency []ServerLatency
	// Metrics are the extra metrics asked for by name.
	Metrics []ServerMetric
}

// ServerLatency is a method's handling time as the server measured it:
// calls over the span and percentiles interpolated within the histogram's
// buckets.
type ServerLatency struct {
	Method   string // "service/method", or "" for all methods
	Calls    int64
	P50, P99 time.Duration
}

// ServerMetric is one named metric over a span, its series summed over
// their labels: a counter's Rate per second, a gauge's Last and Max, a
// histogram's P50 and P99 (in its own unit) with its observations' Rate.
// Found is false when the endpoint did not report the metric.
type ServerMetric struct {
	Name, Kind string // Kind: counter, gauge, histogram, summary, untyped
	Found      bool
	Rate       float64
	Last, Max  float64
	P50, P99   float64
}

// Cores is the CPU cores the server used on average over Span.
func (t ServerStats) Cores() float64 {
	if t.Span <= 0 {
		return 0
	}
	return t.CPU.Seconds() / t.Span.Seconds()
}

// CPUPerCall is the server's CPU time per timed call of r, the result
// the stats are over: the cores it used over Span, times r's measured
// time, per call (Span is shorter than that only when scrapes did not
// bracket it); zero without calls or CPU.
func (t ServerStats) CPUPerCall(r *Result) time.Duration {
	if r.Calls <= 0 || !t.HasCPU || t.Span <= 0 {
		return 0
	}
	return time.Duration(t.Cores() * float64(r.Duration) / float64(r.Calls))
}
