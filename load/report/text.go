package report

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/rpckit/rpckit/load"
)

// TextOptions shape the console summary. The zero value is the default.
type TextOptions struct {
	// Buckets is the number of response time histogram buckets (default 10).
	Buckets int
	// Spectrum adds wrk2's detailed percentile spectrum of the corrected
	// latency.
	Spectrum bool
	// Ticks is the spectrum's points per halving of the distance to 100%
	// (default 5, as wrk2).
	Ticks int
	// ExtraTitle names the latencies targets recorded themselves
	// (Result.Extra), e.g. "Stream messages"; default "Recorded latency".
	ExtraTitle string
}

const barWidth = 40

// WriteText writes the console summary of r: ghz's sections (summary,
// response time histogram, latency distribution, status codes, errors),
// then the service-time distribution, the failed calls' latency, the steps
// of a ramp, and, if asked, the detailed percentile spectrum. When the
// service's metrics were scraped (Result.Server), what they reported
// follows the summary, and for a ramp a table per step follows the steps. The summary
// opens with the calls, successes and errors (count and share), and the
// errors by code. Latencies are corrected ones, measured from each call's
// intended start, of successful calls only; failed calls have their own
// distribution and never count in Requests/sec.
func WriteText(w io.Writer, r *load.Result, opts TextOptions) error {
	if opts.Buckets <= 0 {
		opts.Buckets = 10
	}
	if opts.Ticks <= 0 {
		opts.Ticks = 5
	}
	bw := bufio.NewWriter(w)
	writeSummary(bw, r)
	writeServers(bw, r)
	writeHistogram(bw, r.Corrected, opts.Buckets)
	writeDistribution(bw, "Latency distribution", r.Corrected)
	if !r.Service.Equal(r.Corrected) { // in closed loop they are the same
		writeDistribution(bw, "Service time distribution", r.Service)
	}
	if r.Failed.Count() > 0 {
		writeDistribution(bw, "Failed call latency distribution", r.Failed)
	}
	if r.Extra.Count() > 0 {
		writeExtra(bw, r, opts.ExtraTitle)
	}
	writeCodes(bw, r)
	writeAddresses(bw, r)
	writeSteps(bw, r.Steps)
	writeServerSteps(bw, r.Steps)
	if opts.Spectrum {
		writeSpectrum(bw, r.Corrected, opts.Ticks)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("report: write text: %w", err)
	}
	return nil
}

func writeSummary(w io.Writer, r *load.Result) {
	fmt.Fprintf(w, "\nSummary:\n")
	row := func(k, v string) { fmt.Fprintf(w, "  %-15s %s\n", k+":", v) }
	row("Calls", strconv.FormatInt(r.Calls, 10))
	row("Successes", countShare(r.Successes(), r.Calls))
	row("Errors", countShare(r.Errors, r.Calls))
	writeErrorCodes(w, r)
	row("Total", fmtUnit(r.Duration))
	if r.Corrected.Count() > 0 {
		row("Slowest", fmtUnit(r.Corrected.Max()))
		row("Fastest", fmtUnit(r.Corrected.Min()))
		row("Average", fmtUnit(r.Corrected.Mean()))
	}
	row("Requests/sec", fmtFloat(r.Rate(), 2))
	if r.Offered > 0 {
		row("Offered/sec", fmtFloat(r.Offered, 2))
	}
	if r.NotSent > 0 || r.Offered > 0 {
		row("Not sent", strconv.FormatInt(r.NotSent, 10))
	}
	if r.CutOff > 0 {
		row("Cut off", strconv.FormatInt(r.CutOff, 10))
	}
	if r.Inputs > 0 {
		row("Inputs", strconv.FormatInt(r.Inputs, 10)+" distinct")
	}
	if r.MaxLag > 0 {
		row("Schedule lag", fmt.Sprintf("max %s, mean %s", fmtUnit(r.MaxLag), fmtUnit(r.MeanLag)))
	}
	if r.CPU > 0 && r.Calls > 0 && r.Duration > 0 {
		row("Client CPU", fmt.Sprintf("%s per 1000 calls, %s%% of a core",
			fmtUnit(r.CPU*1000/time.Duration(r.Calls)), fmtFloat(100*r.CPU.Seconds()/r.Duration.Seconds(), 1)))
	}
}

// countShare is "n (p%)", n's share of all.
func countShare(n, all int64) string {
	if all == 0 {
		return strconv.FormatInt(n, 10)
	}
	return fmt.Sprintf("%d (%s%%)", n, fmtFloat(100*float64(n)/float64(all), 2))
}

// writeErrorCodes lists the failed calls by code, under the error count.
func writeErrorCodes(w io.Writer, r *load.Result) {
	for _, k := range byCount(r.Codes) {
		if k != "OK" {
			fmt.Fprintf(w, "    [%s]   %d\n", k, r.Codes[k])
		}
	}
}

// fmtUnit formats d as ghz does: two decimals in the largest unit that
// keeps the value at or above 1.
func fmtUnit(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmtFloat(d.Seconds(), 2) + " s"
	case d >= time.Millisecond:
		return fmtFloat(ms(d), 2) + " ms"
	case d >= time.Microsecond:
		return fmtFloat(float64(d)/float64(time.Microsecond), 2) + " µs"
	}
	return strconv.FormatInt(int64(d), 10) + " ns"
}

// writeHistogram writes ghz's response time histogram: n buckets evenly
// from the fastest to the slowest call, each labelled by its upper bound in
// milliseconds.
func writeHistogram(w io.Writer, h *load.Histogram, n int) {
	fmt.Fprintf(w, "\nResponse time histogram:\n")
	if h.Count() == 0 {
		fmt.Fprintf(w, "  no successful calls\n")
		return
	}
	marks, counts := buckets(h, n)
	var most int64
	for _, c := range counts {
		most = max(most, c)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', 0)
	for i, m := range marks {
		bar := 0
		if most > 0 {
			bar = int(counts[i] * barWidth / most)
		}
		fmt.Fprintf(tw, "  %s\t[%d]\t|%s\n", fmtMS(m), counts[i], strings.Repeat("∎", bar))
	}
	tw.Flush()
}

// buckets spreads h's values over n+1 marks from min to max: a value goes
// to the first mark at or above it.
func buckets(h *load.Histogram, n int) ([]time.Duration, []int64) {
	if h.Count() == 0 {
		return nil, nil
	}
	lo, hi := h.Min(), h.Max()
	size := float64(hi-lo) / float64(n)
	marks := make([]time.Duration, n+1)
	for i := range marks {
		marks[i] = lo + time.Duration(size*float64(i))
	}
	marks[n] = hi
	counts := make([]int64, n+1)
	for _, b := range h.Bars() {
		i := n
		if size > 0 {
			i = int(math.Ceil(float64(b.To-lo) / size))
		}
		counts[min(max(i, 0), n)] += b.Count
	}
	return marks, counts
}

// writeDistribution writes the standard percentiles, ghz's way.
// writeExtra reports what targets recorded themselves, such as stream
// messages: how many, at what rate, and their latency distribution.
func writeExtra(w io.Writer, r *load.Result, title string) {
	if title == "" {
		title = "Recorded latency"
	}
	rate := 0.0
	if r.Duration > 0 {
		rate = float64(r.Extra.Count()) / r.Duration.Seconds()
	}
	fmt.Fprintf(w, "\n%s: %d recorded, %.2f/s\n", title, r.Extra.Count(), rate)
	writeDistribution(w, title+" distribution", r.Extra)
}

func writeDistribution(w io.Writer, title string, h *load.Histogram) {
	fmt.Fprintf(w, "\n%s:\n", title)
	if h.Count() == 0 {
		fmt.Fprintf(w, "  none\n")
		return
	}
	for _, p := range h.Percentiles(load.StandardPercentiles()) {
		if p.Percentile == 100 {
			fmt.Fprintf(w, "  max in %s\n", fmtUnit(p.Value))
			continue
		}
		fmt.Fprintf(w, "  %s %% in %s\n", strconv.FormatFloat(p.Percentile, 'f', -1, 64), fmtUnit(p.Value))
	}
}

func writeCodes(w io.Writer, r *load.Result) {
	if len(r.Codes) > 0 {
		fmt.Fprintf(w, "\nStatus code distribution:\n")
		for _, k := range byCount(r.Codes) {
			fmt.Fprintf(w, "  [%s]   %d responses\n", k, r.Codes[k])
		}
	}
	if len(r.Messages) > 0 {
		fmt.Fprintf(w, "\nError distribution:\n")
		for _, k := range byCount(r.Messages) {
			fmt.Fprintf(w, "  [%d]   %s\n", r.Messages[k], k)
		}
	}
}

// writeAddresses lists the calls by the address that served them, by
// address.
func writeAddresses(w io.Writer, r *load.Result) {
	if len(r.Addresses) == 0 {
		return
	}
	fmt.Fprintf(w, "\nCalls per address (warm-up included):\n")
	var all int64
	for _, n := range r.Addresses {
		all += n
	}
	for _, a := range slices.Sorted(maps.Keys(r.Addresses)) {
		fmt.Fprintf(w, "  [%s]   %s calls\n", a, countShare(r.Addresses[a], all))
	}
}

// byCount orders labels by count, highest first, then by name.
func byCount(m map[string]int64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if c := cmp.Compare(m[b], m[a]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return keys
}

// writeSteps writes one row per step of a ramp, latencies in ms.
func writeSteps(w io.Writer, steps []*load.Result) {
	if len(steps) == 0 {
		return
	}
	fmt.Fprintf(w, "\nSteps (latency in ms):\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "  step\toffered/s\tachieved/s\tcalls\terrors\tnot sent\tp50\tp90\tp99\tmax\t\n")
	for i, s := range steps {
		c := s.Corrected
		fmt.Fprintf(tw, "  %d\t%s\t%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t\n", i+1,
			fmtFloat(s.Offered, 2), fmtFloat(s.Rate(), 2), s.Calls, s.Errors, s.NotSent,
			fmtMS(c.Percentile(50)), fmtMS(c.Percentile(90)), fmtMS(c.Percentile(99)), fmtMS(c.Max()))
	}
	tw.Flush()
}

// writeSpectrum writes the detailed percentile spectrum as wrk2 and
// HdrHistogram print it, values in milliseconds.
func writeSpectrum(w io.Writer, h *load.Histogram, ticks int) {
	fmt.Fprintf(w, "\n  Detailed Percentile spectrum:\n")
	fmt.Fprintf(w, "%12s %12s %12s %12s\n\n", "Value", "Percentile", "TotalCount", "1/(1-Percentile)")
	for _, p := range h.Spectrum(ticks) {
		inv := "inf"
		if p.Quantile < 1 {
			inv = fmtFloat(1/(1-p.Quantile), 2)
		}
		fmt.Fprintf(w, "%12.3f %12.6f %12d %12s\n", ms(p.Value), p.Quantile, p.TotalCount, inv)
	}
	buckets, sub := h.Geometry()
	fmt.Fprintf(w, "#[Mean    = %12.3f, StdDeviation   = %12.3f]\n", ms(h.Mean()), ms(h.StdDev()))
	fmt.Fprintf(w, "#[Max     = %12.3f, Total count    = %12d]\n", ms(h.Max()), h.Count())
	fmt.Fprintf(w, "#[Buckets = %12d, SubBuckets     = %12d]\n", buckets, sub)
}
