package report

import (
	"math"
	"time"

	"github.com/rpckit/rpckit/load"
)

// The data of an HTML report: what the page's script plots, embedded as
// one JSON object so that tests and other tools can read a report too.
// Latencies are float milliseconds, rates calls per second, times seconds
// from the start of measuring. Arrays of a run's series have one value per
// element of Seconds, null where the run has none (past its end, or a
// second with no calls for latencies).
type htmlData struct {
	Title     string    `json:"title"`
	Generated time.Time `json:"generated"`
	SLO       string    `json:"slo,omitempty"`
	SLOLimit  float64   `json:"slo_latency_ms,omitempty"` // the SLO's first latency limit, drawn on the plots
	SLOPct    float64   `json:"slo_percentile,omitempty"` // and its percentile
	Settings  []string  `json:"settings,omitempty"`
	Runs      []htmlRun `json:"runs"`
	Spectrum  []float64 `json:"spectrum_x"` // 1/(1-q) of each spectrum point
	Quantiles []float64 `json:"spectrum_q"` // q of each spectrum point
	Rates     []float64 `json:"step_rates,omitempty"`
	Seconds   []float64 `json:"seconds"` // x of the time series
}

type htmlRun struct {
	Name     string        `json:"name"`
	Summary  htmlSummary   `json:"summary"`
	Series   htmlSeries    `json:"series"`
	Spectrum []*float64    `json:"spectrum_ms"` // latency at each spectrum_q; null past the run's calls
	Steps    []htmlStep    `json:"steps,omitempty"`
	Capacity *htmlCapacity `json:"capacity,omitempty"`
	Knee     *Knee         `json:"knee,omitempty"`
	Verdicts []htmlVerdict `json:"verdicts,omitempty"`
}

type htmlSummary struct {
	Calls         int64            `json:"calls"`
	Errors        int64            `json:"errors"`
	ErrorRate     float64          `json:"error_rate"`
	NotSent       int64            `json:"not_sent"`
	CutOff        int64            `json:"cut_off"`
	OfferedRPS    float64          `json:"offered_rps"`
	RPS           float64          `json:"rps"`
	DurationS     float64          `json:"duration_s"`
	MeanMS        float64          `json:"mean_ms"`
	P50MS         float64          `json:"p50_ms"`
	P90MS         float64          `json:"p90_ms"`
	P99MS         float64          `json:"p99_ms"`
	P999MS        float64          `json:"p999_ms"`
	MaxMS         float64          `json:"max_ms"`
	ServiceP50MS  float64          `json:"service_p50_ms"`
	ServiceP99MS  float64          `json:"service_p99_ms"`
	MaxLagMS      float64          `json:"max_lag_ms"`
	MeanLagMS     float64          `json:"mean_lag_ms"`
	CPUPerCallUS  float64          `json:"cpu_us_per_call"`
	Codes         map[string]int64 `json:"codes,omitempty"`
	Messages      map[string]int64 `json:"messages,omitempty"` // failed calls by error text
	Load          string           `json:"load"`               // the load's shape, such as "open loop, 100 to 400/s in 4 steps of 5s"
	StepStartsSec []float64        `json:"step_starts_s,omitempty"`
}

type htmlSeries struct {
	RPS     []*float64 `json:"rps"`         // calls that ended in the second
	Offered []*float64 `json:"offered_rps"` // the pacer's rate; null in closed loop
	Errors  []*float64 `json:"errors"`
	NotSent []*float64 `json:"not_sent"`
	P50MS   []*float64 `json:"p50_ms"`
	P90MS   []*float64 `json:"p90_ms"`
	P99MS   []*float64 `json:"p99_ms"`
	MaxMS   []*float64 `json:"max_ms"`
}

type htmlStep struct {
	OfferedRPS    float64 `json:"offered_rps"`
	RPS           float64 `json:"rps"`            // timed calls of the step (by intended start) per second
	ThroughputRPS float64 `json:"throughput_rps"` // calls that ended during the step per second, from the series
	P50MS         float64 `json:"p50_ms"`
	P90MS         float64 `json:"p90_ms"`
	P99MS         float64 `json:"p99_ms"`
	MaxMS         float64 `json:"max_ms"`
	Errors        int64   `json:"errors"`
	ErrorRate     float64 `json:"error_rate"`
	NotSent       int64   `json:"not_sent"`
	CPUPerCallUS  float64 `json:"cpu_us_per_call"`
	Pass          *bool   `json:"pass,omitempty"`
}

type htmlCapacity struct {
	RPS  float64 `json:"rps"`
	Step int     `json:"step"`
	OK   bool    `json:"ok"`
}

type htmlVerdict struct {
	Clause   string `json:"clause"`
	Measured string `json:"measured"`
	Pass     bool   `json:"pass"`
}

// spectrumQuantiles are the quantiles of the spectrum plot: four points
// per halving of the distance to 100%, down to 1 in 2^20.
func spectrumQuantiles() (q, x []float64) {
	for i := 0; i <= 80; i++ {
		inv := math.Pow(2, float64(i)/4)
		q = append(q, 1-1/inv)
		x = append(x, inv)
	}
	return q, x
}

func newHTMLData(opts HTMLOptions, runs []Run) *htmlData {
	d := &htmlData{Title: opts.Title, Generated: opts.Generated, Settings: opts.Settings}
	if opts.SLO != nil {
		d.SLO = opts.SLO.String()
		d.SLOPct, d.SLOLimit = sloLatency(opts.SLO)
	}
	d.Quantiles, d.Spectrum = spectrumQuantiles()
	d.Seconds = secondsAxis(runs)
	d.Rates = stepRates(runs)
	for _, r := range runs {
		d.Runs = append(d.Runs, newHTMLRun(r, r.sloOr(opts.SLO), d))
	}
	return d
}

// sloOr is the run's own SLO, or slo.
func (r Run) sloOr(slo SLO) SLO {
	if r.SLO != nil {
		return r.SLO
	}
	return slo
}

// sloLatency is the percentile and limit of the SLO's first latency
// percentile clause, for the line drawn on the plots.
func sloLatency(slo SLO) (float64, float64) {
	for _, c := range slo {
		if c.Metric == "p" {
			return c.Percentile, c.Limit
		}
	}
	return 0, 0
}

// secondsAxis is the time axis long enough for every run's series.
func secondsAxis(runs []Run) []float64 {
	n := 0
	for _, r := range runs {
		n = max(n, len(r.Result.Series))
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = float64(i)
	}
	return out
}

// stepRates is the union of the runs' offered step rates, in order of
// first appearance.
func stepRates(runs []Run) []float64 {
	seen := map[float64]bool{}
	var out []float64
	for _, r := range runs {
		for _, s := range r.Result.Steps {
			if !seen[s.Offered] {
				seen[s.Offered] = true
				out = append(out, s.Offered)
			}
		}
	}
	return out
}

func newHTMLRun(r Run, slo SLO, d *htmlData) htmlRun {
	res := r.Result
	hr := htmlRun{
		Name: r.Name, Summary: summaryOf(res), Series: seriesOf(res, len(d.Seconds)),
		Spectrum: spectrumOf(res, d.Quantiles, d.Spectrum),
	}
	for i, s := range res.Steps {
		hr.Steps = append(hr.Steps, stepOf(res, i, s, slo))
	}
	if k, ok := FindKnee(res, KneeOptions{}); ok && len(res.Steps) > 0 {
		hr.Knee = &k
	}
	if slo != nil {
		if rate, step, ok := Capacity(res, slo); len(res.Steps) > 0 {
			hr.Capacity = &htmlCapacity{RPS: rate, Step: step, OK: ok}
		}
		for _, v := range slo.Check(res) {
			hr.Verdicts = append(hr.Verdicts, htmlVerdict{Clause: v.Clause.Text, Measured: v.Clause.format(v.Measured), Pass: v.Pass})
		}
	}
	return hr
}

func summaryOf(r *load.Result) htmlSummary {
	h, svc := r.Corrected, r.Service
	if svc == nil {
		svc = load.NewHistogram()
	}
	s := htmlSummary{
		Calls: r.Calls, Errors: r.Errors, ErrorRate: r.ErrorRate(), NotSent: r.NotSent, CutOff: r.CutOff,
		OfferedRPS: r.Offered, RPS: r.Rate(), DurationS: r.Duration.Seconds(),
		MeanMS: ms(h.Mean()), P50MS: ms(h.Percentile(50)), P90MS: ms(h.Percentile(90)), P99MS: ms(h.Percentile(99)),
		P999MS: ms(h.Percentile(99.9)), MaxMS: ms(h.Max()),
		ServiceP50MS: ms(svc.Percentile(50)), ServiceP99MS: ms(svc.Percentile(99)),
		MaxLagMS: ms(r.MaxLag), MeanLagMS: ms(r.MeanLag), CPUPerCallUS: micros(r.CPUPerCall()),
		Codes: r.Codes, Messages: r.Messages, Load: loadShape(r),
	}
	for i := range r.Steps {
		s.StepStartsSec = append(s.StepStartsSec, stepOffset(r, i).Seconds())
	}
	return s
}

func stepOf(r *load.Result, i int, s *load.Result, slo SLO) htmlStep {
	h := s.Corrected
	from := stepOffset(r, i)
	st := htmlStep{
		OfferedRPS: s.Offered, RPS: s.Rate(), ThroughputRPS: endedRate(r.Series, from, from+s.Duration),
		P50MS: ms(h.Percentile(50)), P90MS: ms(h.Percentile(90)), P99MS: ms(h.Percentile(99)), MaxMS: ms(h.Max()),
		Errors: s.Errors, ErrorRate: s.ErrorRate(), NotSent: s.NotSent, CPUPerCallUS: micros(s.CPUPerCall()),
	}
	if slo != nil {
		pass := slo.Met(s)
		st.Pass = &pass
	}
	return st
}

// stepOffset is when step i of r began, from the start of r: from the
// steps' start times, or the sum of the durations before it when a start
// is missing.
func stepOffset(r *load.Result, i int) time.Duration {
	s := r.Steps[i]
	if !s.Start.IsZero() && !r.Start.IsZero() {
		return max(s.Start.Sub(r.Start), 0)
	}
	var off time.Duration
	for _, p := range r.Steps[:i] {
		off += p.Duration
	}
	return off
}

// endedRate is the rate of calls that ended from from to to, by the
// series, counting the calls of a point in proportion to its overlap.
func endedRate(series []load.Point, from, to time.Duration) float64 {
	if to <= from {
		return 0
	}
	var calls float64
	for _, p := range series {
		lo, hi := max(p.At, from), min(p.At+p.Length, to)
		if hi > lo && p.Length > 0 {
			calls += float64(p.Calls) * float64(hi-lo) / float64(p.Length)
		}
	}
	return calls / (to - from).Seconds()
}

func seriesOf(r *load.Result, n int) htmlSeries {
	var s htmlSeries
	for i := range n {
		if i >= len(r.Series) {
			s.add(nil, nil, nil, nil, nil, nil, nil, nil)
			continue
		}
		p := r.Series[i]
		var lat [4]*float64 // no latency in a second with no calls
		if p.Calls > 0 {
			lat = [4]*float64{num(ms(p.P50)), num(ms(p.P90)), num(ms(p.P99)), num(ms(p.Max))}
		}
		s.add(num(p.Rate()), offeredIn(r, p), num(float64(p.Errors)), num(float64(p.NotSent)), lat[0], lat[1], lat[2], lat[3])
	}
	return s
}

func (s *htmlSeries) add(rps, offered, errors, notSent, p50, p90, p99, maxMS *float64) {
	s.RPS, s.Offered = append(s.RPS, rps), append(s.Offered, offered)
	s.Errors, s.NotSent = append(s.Errors, errors), append(s.NotSent, notSent)
	s.P50MS, s.P90MS = append(s.P50MS, p50), append(s.P90MS, p90)
	s.P99MS, s.MaxMS = append(s.P99MS, p99), append(s.MaxMS, maxMS)
}

// offeredIn is the pacer's mean rate over the point p (within the run's
// measured time): the steps' rates weighted by their overlap with it, or
// the run's constant rate; nil in closed loop and past the measured time.
func offeredIn(r *load.Result, p load.Point) *float64 {
	from, to := p.At, min(p.At+max(p.Length, 0), r.Duration)
	switch {
	case from >= r.Duration:
		return nil
	case len(r.Steps) == 0 && r.Offered > 0:
		return num(r.Offered)
	case len(r.Steps) == 0:
		return nil
	case to <= from:
		return num(r.Steps[stepAt(r, from)].Offered)
	}
	var calls float64
	for i, s := range r.Steps {
		start := stepOffset(r, i)
		end := r.Duration
		if i+1 < len(r.Steps) {
			end = stepOffset(r, i+1)
		}
		if lo, hi := max(start, from), min(end, to); hi > lo {
			calls += s.Offered * (hi - lo).Seconds()
		}
	}
	return num(calls / (to - from).Seconds())
}

// stepAt is the index of r's step under way at offset at.
func stepAt(r *load.Result, at time.Duration) int {
	for i := len(r.Steps) - 1; i > 0; i-- {
		if at >= stepOffset(r, i) {
			return i
		}
	}
	return 0
}

// spectrumOf is the latency at each quantile q (at x = 1/(1-q)) while x is
// within the run's count of calls; the first point beyond is the maximum,
// and the rest are null: a run of n calls says nothing finer than 1 in n.
func spectrumOf(r *load.Result, q, x []float64) []*float64 {
	out := make([]*float64, len(q))
	n := float64(r.Corrected.Count())
	for i := range q {
		if n == 0 {
			break
		}
		if x[i] > n {
			out[i] = num(ms(r.Corrected.Max()))
			break
		}
		out[i] = num(ms(r.Corrected.Percentile(100 * q[i])))
	}
	return out
}

func num(v float64) *float64 { return &v }

func micros(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
