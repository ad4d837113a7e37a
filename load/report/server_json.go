package report

import (
	"github.com/rpckit/rpckit/load"
)

// The JSON form of load.ServerStats, a result's "target_metrics": one
// object per endpoint. A figure the endpoint did not report is left out.
type jsonServer struct {
	URL           string              `json:"url"`
	Scrapes       int                 `json:"scrapes"`
	Failed        int                 `json:"failed"`
	FirstError    string              `json:"first_error,omitempty"`
	SpanMS        float64             `json:"span_ms"`
	CPUMS         *float64            `json:"cpu_ms,omitempty"`
	Cores         *float64            `json:"cores,omitempty"`
	CPUPerCall    *float64            `json:"cpu_us_per_call,omitempty"`
	MaxRSS        *int64              `json:"max_rss_bytes,omitempty"`
	MaxGoroutines *int64              `json:"max_goroutines,omitempty"`
	GCPauses      *int64              `json:"gc_pauses,omitempty"`
	GCPauseMS     *float64            `json:"gc_pause_ms,omitempty"`
	Latency       []jsonServerLatency `json:"latency,omitempty"`
	Metrics       []jsonServerMetric  `json:"metrics,omitempty"`
}

type jsonServerLatency struct {
	Method string  `json:"method,omitempty"`
	Calls  int64   `json:"calls"`
	P50MS  float64 `json:"p50_ms"`
	P99MS  float64 `json:"p99_ms"`
}

type jsonServerMetric struct {
	Name  string   `json:"name"`
	Kind  string   `json:"kind,omitempty"`
	Found bool     `json:"found"`
	Rate  *float64 `json:"rate,omitempty"`
	Last  *float64 `json:"last,omitempty"`
	Max   *float64 `json:"max,omitempty"`
	P50   *float64 `json:"p50,omitempty"`
	P99   *float64 `json:"p99,omitempty"`
}

// ptr is &v when ok, else nil.
func ptr[T any](v T, ok bool) *T {
	if !ok {
		return nil
	}
	return &v
}

// val is *p, or zero for nil.
func val[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func serversJSON(r *load.Result) []jsonServer {
	var out []jsonServer
	for _, s := range r.Server {
		out = append(out, serverJSON(s, r))
	}
	return out
}

func serverJSON(s load.ServerStats, r *load.Result) jsonServer {
	js := jsonServer{URL: s.URL, Scrapes: s.Scrapes, Failed: s.Failed, FirstError: s.FirstError,
		SpanMS: ms(s.Span), CPUMS: ptr(ms(s.CPU), s.HasCPU), Cores: ptr(s.Cores(), s.HasCPU),
		CPUPerCall:    ptr(float64(s.CPUPerCall(r))/1e3, s.HasCPU && r.Calls > 0),
		MaxRSS:        ptr(s.MaxRSS, s.HasRSS),
		MaxGoroutines: ptr(s.MaxGoroutines, s.HasGoroutines),
		GCPauses:      ptr(s.GCs, s.HasGC), GCPauseMS: ptr(ms(s.GCPause), s.HasGC)}
	for _, l := range s.Latency {
		js.Latency = append(js.Latency, jsonServerLatency{Method: l.Method, Calls: l.Calls, P50MS: ms(l.P50), P99MS: ms(l.P99)})
	}
	for _, m := range s.Metrics {
		js.Metrics = append(js.Metrics, metricJSON(m))
	}
	return js
}

// metricJSON gives the figures of the metric's kind: a rate for counters,
// last and max for gauges, p50, p99 and rate for histograms.
func metricJSON(m load.ServerMetric) jsonServerMetric {
	rate := m.Found && (m.Kind == "counter" || m.Kind == "histogram" || m.Kind == "summary")
	gauge := m.Found && !rate
	hist := m.Kind == "histogram"
	return jsonServerMetric{Name: m.Name, Kind: m.Kind, Found: m.Found,
		Rate: ptr(m.Rate, rate), Last: ptr(m.Last, gauge), Max: ptr(m.Max, gauge),
		P50: ptr(m.P50, hist), P99: ptr(m.P99, hist)}
}

func serversFromJSON(js []jsonServer) []load.ServerStats {
	var out []load.ServerStats
	for _, j := range js {
		out = append(out, serverFromJSON(j))
	}
	return out
}

func serverFromJSON(j jsonServer) load.ServerStats {
	s := load.ServerStats{URL: j.URL, Scrapes: j.Scrapes, Failed: j.Failed, FirstError: j.FirstError,
		Span: fromMS(j.SpanMS), CPU: fromMS(val(j.CPUMS)), HasCPU: j.CPUMS != nil,
		MaxRSS: val(j.MaxRSS), HasRSS: j.MaxRSS != nil,
		MaxGoroutines: val(j.MaxGoroutines), HasGoroutines: j.MaxGoroutines != nil,
		GCs: val(j.GCPauses), GCPause: fromMS(val(j.GCPauseMS)), HasGC: j.GCPauses != nil}
	for _, l := range j.Latency {
		s.Latency = append(s.Latency, load.ServerLatency{Method: l.Method, Calls: l.Calls, P50: fromMS(l.P50MS), P99: fromMS(l.P99MS)})
	}
	for _, m := range j.Metrics {
		s.Metrics = append(s.Metrics, load.ServerMetric{Name: m.Name, Kind: m.Kind, Found: m.Found,
			Rate: val(m.Rate), Last: val(m.Last), Max: val(m.Max), P50: val(m.P50), P99: val(m.P99)})
	}
	return s
}
