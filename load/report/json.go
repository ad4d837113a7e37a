package report

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/rpckit/rpckit/load"
)

// JSONSchema names the version of the JSON report WriteJSON writes, in its
// "schema" field. ReadJSON reads it and the unversioned reports before it.
const JSONSchema = "rpckit.bench/v2"

// The JSON form of a Result. Field names are stable and snake_case;
// durations are float milliseconds ("_ms"), rates calls per second
// ("_rps"), error_rate a fraction from 0 to 1. Each latency block carries
// its histogram in HdrHistogram's compressed V2 encoding (base64, µs
// values), which ReadJSON uses to restore the Result exactly; the other
// latency figures, and the verdicts, capacity and knee, are derived and
// ignored on reading.
type jsonResult struct {
	Schema     string           `json:"schema,omitempty"`
	Start      time.Time        `json:"start"`
	DurationMS float64          `json:"duration_ms"`
	OfferedRPS float64          `json:"offered_rps"`
	RPS        float64          `json:"rps"`
	Calls      int64            `json:"calls"`
	Successes  int64            `json:"successes"`
	Errors     int64            `json:"errors"`
	ErrorRate  float64          `json:"error_rate"`
	NotSent    int64            `json:"not_sent"`
	CutOff     int64            `json:"cut_off"`
	Inputs     int64            `json:"inputs,omitempty"`
	Codes      map[string]int64 `json:"codes"`
	Messages   map[string]int64 `json:"messages"`
	FirstError string           `json:"first_error,omitempty"`
	Addresses  map[string]int64 `json:"addresses,omitempty"`
	MaxLagMS   float64          `json:"max_lag_ms"`
	MeanLagMS  float64          `json:"mean_lag_ms"`
	CPUMS      float64          `json:"cpu_ms"`
	CPUPerCall float64          `json:"cpu_us_per_call"`
	Latency    *jsonLatency     `json:"latency"`
	Service    *jsonLatency     `json:"service"`
	Failed     *jsonLatency     `json:"failed"`
	Extra      *jsonLatency     `json:"extra,omitempty"`
	SLO        *jsonSLO         `json:"slo,omitempty"`
	Capacity   *jsonCapacity    `json:"capacity,omitempty"`
	Knee       *jsonKnee        `json:"knee,omitempty"`
	Series     []jsonPoint      `json:"series,omitempty"`
	Steps      []*jsonResult    `json:"steps,omitempty"`
	// The service's own metrics, with bench --target-metrics.
	TargetMetrics []jsonServer `json:"target_metrics,omitempty"`
}

type jsonLatency struct {
	Count       int64            `json:"count"`
	MinMS       float64          `json:"min_ms"`
	MeanMS      float64          `json:"mean_ms"`
	StdDevMS    float64          `json:"stddev_ms"`
	MaxMS       float64          `json:"max_ms"`
	Percentiles []jsonPercentile `json:"percentiles"`
	Histogram   string           `json:"histogram"`
}

type jsonPercentile struct {
	Percentile float64 `json:"percentile"`
	MS         float64 `json:"ms"`
}

type jsonPoint struct {
	AtMS     float64 `json:"at_ms"`
	LengthMS float64 `json:"length_ms"`
	Calls    int64   `json:"calls"`
	Errors   int64   `json:"errors"`
	NotSent  int64   `json:"not_sent"`
	CPUMS    float64 `json:"cpu_ms"`
	RPS      float64 `json:"rps"`
	P50MS    float64 `json:"p50_ms"`
	P90MS    float64 `json:"p90_ms"`
	P99MS    float64 `json:"p99_ms"`
	MaxMS    float64 `json:"max_ms"`
}

// JSONOptions shape the JSON report. The zero value is the default.
type JSONOptions struct {
	// SLO, if set, adds its verdicts on the run and on each step, and for
	// a ramp the capacity.
	SLO SLO
}

// WriteJSON writes r as one indented JSON object with the zero
// JSONOptions.
func WriteJSON(w io.Writer, r *load.Result) error {
	return JSONOptions{}.Write(w, r)
}

// Write writes r as one indented JSON object, schema JSONSchema.
// Top-level fields: schema; start (RFC 3339), duration_ms, offered_rps
// (the mean for a ramp), rps (successful calls per second), calls,
// successes, errors, error_rate (0 to 1), not_sent, cut_off, inputs (the
// distinct data-file rows used, when counted), codes and
// messages (label to count), first_error (the first failed call's text),
// max_lag_ms, mean_lag_ms, cpu_ms and cpu_us_per_call (the process's CPU
// time while measuring, in all and per timed call); latency (corrected)
// and service of successful calls, and failed (corrected, of failed
// calls), each with count, min_ms, mean_ms, stddev_ms, max_ms,
// percentiles (the standard list as {percentile, ms}) and histogram
// (compressed HdrHistogram, µs); extra when targets recorded any; with an
// SLO, slo ({objectives, met, verdicts: [{clause, measured, unit, pass,
// no_data}]}); for a ramp, knee ({step, rate_rps, reason}) when found and,
// with an SLO, capacity ({found, rate_rps, step}), steps counted from 1;
// series (at_ms, length_ms, calls, errors, not_sent, cpu_ms, rps, p50_ms,
// p90_ms, p99_ms, max_ms per second); steps, each a result object of
// its own with its own slo; and target_metrics when the caller scraped
// the service's metrics (load.ServerStats), one object per endpoint: url,
// scrapes, failed, first_error, span_ms, and those reported of cpu_ms,
// cores, cpu_us_per_call (the server's CPU per timed call), max_rss_bytes,
// max_goroutines, gc_pauses, gc_pause_ms, latency ([{method, calls,
// p50_ms, p99_ms}], all methods first, without a method) and metrics
// ([{name, kind, found, rate, last, max, p50, p99}]).
func (o JSONOptions) Write(w io.Writer, r *load.Result) error {
	jr, err := resultJSON(r, o.SLO)
	if err != nil {
		return err
	}
	jr.Schema = JSONSchema
	return encodeJSON(w, jr)
}

func toJSON(r *load.Result, slo SLO) (*jsonResult, error) {
	jr := &jsonResult{
		Start: r.Start, DurationMS: ms(r.Duration), OfferedRPS: r.Offered, RPS: r.Rate(),
		Calls: r.Calls, Successes: r.Successes(), Errors: r.Errors, ErrorRate: r.ErrorRate(),
		NotSent: r.NotSent, CutOff: r.CutOff, Inputs: r.Inputs,
		Codes: nonNil(r.Codes), Messages: nonNil(r.Messages), FirstError: r.FirstError,
		Addresses: r.Addresses,
		MaxLagMS:  ms(r.MaxLag), MeanLagMS: ms(r.MeanLag),
		CPUMS: ms(r.CPU), CPUPerCall: float64(r.CPUPerCall()) / 1e3,
		SLO: sloJSON(r, slo), TargetMetrics: serversJSON(r),
	}
	var err error
	if jr.Latency, err = latencyJSON(r.Corrected); err != nil {
		return nil, err
	}
	if jr.Service, err = latencyJSON(r.Service); err != nil {
		return nil, err
	}
	if jr.Failed, err = latencyJSON(r.Failed); err != nil {
		return nil, err
	}
	if r.Extra.Count() > 0 {
		if jr.Extra, err = latencyJSON(r.Extra); err != nil {
			return nil, err
		}
	}
	for _, p := range r.Series {
		jr.Series = append(jr.Series, pointJSON(p))
	}
	for _, s := range r.Steps {
		js, err := toJSON(s, slo)
		if err != nil {
			return nil, err
		}
		jr.Steps = append(jr.Steps, js)
	}
	return jr, nil
}

func nonNil(m map[string]int64) map[string]int64 {
	if m == nil {
		return map[string]int64{}
	}
	return m
}

func latencyJSON(h *load.Histogram) (*jsonLatency, error) {
	if h == nil {
		h = load.NewHistogram()
	}
	enc, err := h.MarshalText()
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	jl := &jsonLatency{
		Count: h.Count(), MinMS: ms(h.Min()), MeanMS: ms(h.Mean()), StdDevMS: ms(h.StdDev()),
		MaxMS: ms(h.Max()), Histogram: string(enc),
	}
	for _, p := range h.Percentiles(load.StandardPercentiles()) {
		jl.Percentiles = append(jl.Percentiles, jsonPercentile{Percentile: p.Percentile, MS: ms(p.Value)})
	}
	return jl, nil
}

func pointJSON(p load.Point) jsonPoint {
	return jsonPoint{
		AtMS: ms(p.At), LengthMS: ms(p.Length), Calls: p.Calls, Errors: p.Errors, NotSent: p.NotSent,
		CPUMS: ms(p.CPU), RPS: p.Rate(), P50MS: ms(p.P50), P90MS: ms(p.P90), P99MS: ms(p.P99), MaxMS: ms(p.Max),
	}
}

// ReadJSON reads a Result written by WriteJSON. Histograms are restored
// exactly, so Results read from several files merge (load.Merge) into
// exact percentiles. Of a report of several flows (WriteFlows) it reads
// the total.
func ReadJSON(rd io.Reader) (*load.Result, error) {
	var doc struct {
		jsonResult
		Total *jsonResult `json:"total"`
	}
	dec := json.NewDecoder(rd)
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("report: read json: %w", err)
	}
	jr := &doc.jsonResult
	switch {
	case jr.Schema == FlowsJSONSchema && doc.Total == nil:
		return nil, fmt.Errorf("report: read json: a report of flows without a total")
	case jr.Schema == FlowsJSONSchema:
		jr = doc.Total
	case jr.Schema != "" && jr.Schema != JSONSchema:
		return nil, fmt.Errorf("report: read json: schema %q, want %q or %q", jr.Schema, JSONSchema, FlowsJSONSchema)
	}
	r, err := fromJSON(jr)
	if err != nil {
		return nil, fmt.Errorf("report: read json: %w", err)
	}
	return r, nil
}

func fromJSON(jr *jsonResult) (*load.Result, error) {
	r := &load.Result{
		Start: jr.Start, Duration: fromMS(jr.DurationMS), Offered: jr.OfferedRPS,
		Calls: jr.Calls, Errors: jr.Errors, NotSent: jr.NotSent, CutOff: jr.CutOff, Inputs: jr.Inputs,
		Codes: nonNil(jr.Codes), Messages: nonNil(jr.Messages), FirstError: jr.FirstError,
		Addresses: jr.Addresses,
		MaxLag:    fromMS(jr.MaxLagMS), MeanLag: fromMS(jr.MeanLagMS), CPU: fromMS(jr.CPUMS),
		Server: serversFromJSON(jr.TargetMetrics),
	}
	var err error
	if r.Corrected, err = histogramJSON(jr.Latency, "latency"); err != nil {
		return nil, err
	}
	if r.Service, err = histogramJSON(jr.Service, "service"); err != nil {
		return nil, err
	}
	if r.Failed, err = histogramJSON(jr.Failed, "failed"); err != nil {
		return nil, err
	}
	if r.Extra, err = histogramJSON(jr.Extra, "extra"); err != nil {
		return nil, err
	}
	for _, p := range jr.Series {
		r.Series = append(r.Series, pointFromJSON(p))
	}
	for i, s := range jr.Steps {
		st, err := fromJSON(s)
		if err != nil {
			return nil, fmt.Errorf("step %d: %w", i+1, err)
		}
		r.Steps = append(r.Steps, st)
	}
	return r, nil
}

func histogramJSON(jl *jsonLatency, field string) (*load.Histogram, error) {
	h := load.NewHistogram()
	if jl == nil || jl.Histogram == "" {
		return h, nil
	}
	if err := h.UnmarshalText([]byte(jl.Histogram)); err != nil {
		return nil, fmt.Errorf("%s histogram: %w", field, err)
	}
	return h, nil
}

func pointFromJSON(p jsonPoint) load.Point {
	return load.Point{
		At: fromMS(p.AtMS), Length: fromMS(p.LengthMS), Calls: p.Calls, Errors: p.Errors, NotSent: p.NotSent,
		CPU: fromMS(p.CPUMS), P50: fromMS(p.P50MS), P90: fromMS(p.P90MS), P99: fromMS(p.P99MS), Max: fromMS(p.MaxMS),
	}
}
