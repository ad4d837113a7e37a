package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"github.com/rpckit/rpckit/load"
)

// seriesHeader returns the columns of WriteSeriesCSV.
func seriesHeader() []string {
	return []string{
		"second", "at_ms", "length_ms", "calls", "errors", "not_sent", "rps",
		"p50_ms", "p90_ms", "p99_ms", "max_ms",
	}
}

// WriteSeriesCSV writes r's time series, one row per interval (normally a
// second) after a header row:
//
//	second     index of the interval, from 0
//	at_ms      start, from the end of warm-up
//	length_ms  length of the interval
//	calls, errors, not_sent   counts in the interval
//	rps        calls per second that ended in the interval
//	p50_ms, p90_ms, p99_ms, max_ms   corrected latency of those calls
func WriteSeriesCSV(w io.Writer, r *load.Result) error {
	cw := csv.NewWriter(w)
	_ = cw.Write(seriesHeader())
	for i, p := range r.Series {
		_ = cw.Write([]string{
			strconv.Itoa(i), fmtMS(p.At), fmtMS(p.Length),
			itoa(p.Calls), itoa(p.Errors), itoa(p.NotSent), fmtFloat(p.Rate(), 2),
			fmtMS(p.P50), fmtMS(p.P90), fmtMS(p.P99), fmtMS(p.Max),
		})
	}
	return flushCSV(cw)
}

// summaryHeader returns the columns of WriteSummaryCSV.
func summaryHeader() []string {
	return []string{
		"name", "offered_rps", "duration_ms", "calls", "errors", "error_rate", "not_sent", "cut_off", "rps",
		"min_ms", "mean_ms", "stddev_ms", "p50_ms", "p90_ms", "p99_ms", "p99.9_ms", "max_ms",
		"service_p50_ms", "service_p99_ms", "max_lag_ms",
		"successes", "failed_p50_ms", "failed_p99_ms", "slo", "capacity_rps", "knee_rps",
	}
}

// CSVOptions shape the summary CSV. The zero value is the default.
type CSVOptions struct {
	// SLO, if set, fills the slo column of each row and, for a ramp, the
	// capacity_rps column of the total row.
	SLO SLO
}

// WriteSummaryCSV writes the summary CSV with the zero CSVOptions.
func WriteSummaryCSV(w io.Writer, r *load.Result) error {
	return CSVOptions{}.WriteSummary(w, r)
}

// WriteSummary writes one row for the whole run, named "total", then one
// per step of a ramp, named "step 1", "step 2"..., after a header row.
// Latencies are corrected ones, of successful calls, except the service_
// columns (successful calls from their send) and failed_ (failed calls);
// rps counts successful calls only; error_rate is a fraction from 0 to 1.
// slo is "pass" or "fail" (empty without an SLO); capacity_rps (with an
// SLO) and knee_rps are the ramp's, in the total row, empty when there is
// none.
func (o CSVOptions) WriteSummary(w io.Writer, r *load.Result) error {
	cw := csv.NewWriter(w)
	_ = cw.Write(summaryHeader())
	total := append(summaryRow("total", r, o.SLO), rampColumns(r, o.SLO)...)
	_ = cw.Write(total)
	for i, s := range r.Steps {
		_ = cw.Write(append(summaryRow(fmt.Sprintf("step %d", i+1), s, o.SLO), "", ""))
	}
	return flushCSV(cw)
}

func summaryRow(name string, r *load.Result, slo SLO) []string {
	c, s, f := r.Corrected, r.Service, r.Failed
	return []string{
		name, fmtFloat(r.Offered, 2), fmtMS(r.Duration), itoa(r.Calls), itoa(r.Errors),
		fmtFloat(r.ErrorRate(), 6), itoa(r.NotSent), itoa(r.CutOff), fmtFloat(r.Rate(), 2),
		fmtMS(c.Min()), fmtMS(c.Mean()), fmtMS(c.StdDev()), fmtMS(c.Percentile(50)),
		fmtMS(c.Percentile(90)), fmtMS(c.Percentile(99)), fmtMS(c.Percentile(99.9)), fmtMS(c.Max()),
		fmtMS(s.Percentile(50)), fmtMS(s.Percentile(99)), fmtMS(r.MaxLag),
		itoa(r.Successes()), fmtMS(f.Percentile(50)), fmtMS(f.Percentile(99)), sloWord(r, slo),
	}
}

func sloWord(r *load.Result, slo SLO) string {
	switch {
	case slo == nil:
		return ""
	case slo.Met(r):
		return "pass"
	}
	return "fail"
}

// rampColumns are the capacity_rps and knee_rps of a ramp.
func rampColumns(r *load.Result, slo SLO) []string {
	cols := []string{"", ""}
	if len(r.Steps) == 0 {
		return cols
	}
	if rate, _, ok := Capacity(r, slo); ok && slo != nil {
		cols[0] = fmtFloat(rate, 2)
	}
	if k, ok := FindKnee(r, KneeOptions{}); ok {
		cols[1] = fmtFloat(k.Rate, 2)
	}
	return cols
}

func itoa(n int64) string {
	return strconv.FormatInt(n, 10)
}

// flushCSV flushes cw and reports the first write error.
func flushCSV(cw *csv.Writer) error {
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("report: write csv: %w", err)
	}
	return nil
}
