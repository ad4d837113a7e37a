package report

import (
	"math"
	"time"

	"github.com/rpckit/rpckit/load"
)

// The data of an HTML report: what the page's script draws, embedded as
// one JSON object so that other tools can read a report too. Latencies are
// float milliseconds, rates calls per second, times seconds from the start
// of measuring.
type htmlData struct {
	Title     string    `json:"title"`
	Generated time.Time `json:"generated"`
	SLO       string    `json:"slo,omitempty"`
	SLOP99MS  float64   `json:"slo_latency_ms,omitempty"` // the SLO's latency limit, for the plots
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
	Spectrum []float64     `json:"spectrum_ms"` // latency at each spectrum_q
	Steps    []htmlStep    `json:"steps,omitempty"`
	Capacity *htmlCapacity `json:"capacity,omitempty"`
	Knee     *Knee         `json:"knee,omitempty"`
	Verdicts []htmlVerdict `json:"verdicts,omitempty"`
}

type htmlSummary struct {
	Calls      int64   `json:"calls"`
	Errors     int64   `json:"errors"`
	ErrorRate  float64 `json:"error_rate"`
	NotSent    int64   `json:"not_sent"`
	OfferedRPS float64 `json:"offered_rps"`
	RPS        float64 `json:"rps"`
	DurationS  float64 `json:"duration_s"`
	P50MS      float64 `json:"p50_ms"`
	P90MS      float64 `json:"p90_ms"`
	P99MS      float64 `json:"p99_ms"`
	P999MS     float64 `json:"p999_ms"`
	MaxMS      float64 `json:"max_ms"`
	CPUPerCall float64 `json:"cpu_us_per_call"`
}

// htmlSeries holds one value per second of Seconds; null past the run's end.
type htmlSeries struct {
	RPS    []*float64 `json:"rps"`
	Errors []*float64 `json:"errors"`
	P50MS  []*float64 `json:"p50_ms"`
	P90MS  []*float64 `json:"p90_ms"`
	P99MS  []*float64 `json:"p99_ms"`
	MaxMS  []*float64 `json:"max_ms"`
}

type htmlStep struct {
	OfferedRPS float64 `json:"offered_rps"`
	RPS        float64 `json:"rps"`
	P50MS      float64 `json:"p50_ms"`
	P99MS      float64 `json:"p99_ms"`
	MaxMS      float64 `json:"max_ms"`
	Errors     int64   `json:"errors"`
	ErrorRate  float64 `json:"error_rate"`
	CPUPerCall float64 `json:"cpu_us_per_call"`
	Pass       *bool   `json:"pass,omitempty"`
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
	if d.Generated.IsZero() {
		d.Generated = time.Now().UTC().Truncate(time.Second)
	}
	if opts.SLO != nil {
		d.SLO = opts.SLO.String()
		d.SLOPct, d.SLOP99MS = sloLatency(opts.SLO)
	}
	d.Quantiles, d.Spectrum = spectrumQuantiles()
	d.Seconds = secondsAxis(runs)
	d.Rates = stepRates(runs)
	for _, r := range runs {
		d.Runs = append(d.Runs, newHTMLRun(r, opts.SLO, d))
	}
	return d
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

// stepRates is the union of the runs' offered step rates, in order.
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
	hr := htmlRun{Name: r.Name, Summary: summaryOf(res), Series: seriesOf(res, len(d.Seconds))}
	for _, q := range d.Quantiles {
		hr.Spectrum = append(hr.Spectrum, ms(res.Corrected.Percentile(100*q)))
	}
	for _, s := range res.Steps {
		hr.Steps = append(hr.Steps, stepOf(s, slo))
	}
	if len(res.Steps) > 0 {
		if k, ok := FindKnee(res, KneeOptions{}); ok {
			hr.Knee = &k
		}
	}
	if slo != nil {
		rate, step, ok := Capacity(res, slo)
		if len(res.Steps) > 0 {
			hr.Capacity = &htmlCapacity{RPS: rate, Step: step, OK: ok}
		}
		for _, v := range slo.Check(res) {
			hr.Verdicts = append(hr.Verdicts, htmlVerdict{Clause: v.Clause.Text, Measured: v.Clause.format(v.Measured), Pass: v.Pass})
		}
	}
	return hr
}

func summaryOf(r *load.Result) htmlSummary {
	h := r.Corrected
	return htmlSummary{
		Calls: r.Calls, Errors: r.Errors, ErrorRate: r.ErrorRate(), NotSent: r.NotSent,
		OfferedRPS: r.Offered, RPS: r.Rate(), DurationS: r.Duration.Seconds(),
		P50MS: ms(h.Percentile(50)), P90MS: ms(h.Percentile(90)), P99MS: ms(h.Percentile(99)),
		P999MS: ms(h.Percentile(99.9)), MaxMS: ms(h.Max()), CPUPerCall: micros(r.CPUPerCall()),
	}
}

func stepOf(s *load.Result, slo SLO) htmlStep {
	st := htmlStep{
		OfferedRPS: s.Offered, RPS: s.Rate(), P50MS: ms(s.Corrected.Percentile(50)),
		P99MS: ms(s.Corrected.Percentile(99)), MaxMS: ms(s.Corrected.Max()),
		Errors: s.Errors, ErrorRate: s.ErrorRate(), CPUPerCall: micros(s.CPUPerCall()),
	}
	if slo != nil {
		pass := slo.Met(s)
		st.Pass = &pass
	}
	return st
}

func seriesOf(r *load.Result, n int) htmlSeries {
	s := htmlSeries{}
	for i := range n {
		if i >= len(r.Series) {
			s.RPS, s.Errors = append(s.RPS, nil), append(s.Errors, nil)
			s.P50MS, s.P90MS = append(s.P50MS, nil), append(s.P90MS, nil)
			s.P99MS, s.MaxMS = append(s.P99MS, nil), append(s.MaxMS, nil)
			continue
		}
		p := r.Series[i]
		s.RPS, s.Errors = append(s.RPS, num(p.Rate())), append(s.Errors, num(float64(p.Errors)))
		s.P50MS, s.P90MS = append(s.P50MS, num(ms(p.P50))), append(s.P90MS, num(ms(p.P90)))
		s.P99MS, s.MaxMS = append(s.P99MS, num(ms(p.P99))), append(s.MaxMS, num(ms(p.Max)))
	}
	return s
}

func num(v float64) *float64 { return &v }

func micros(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
