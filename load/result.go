package load

import (
	"maps"
	"slices"
	"time"
)

// A Result is what a run measured. Latencies of successful calls are in two
// histograms: the corrected one, from each call's intended start (what a
// user of the service would see), and the service-time one, from the
// actual send. In closed loop the two are the same. Failed calls are never
// in them, nor in Rate: their latencies have a histogram of their own.
type Result struct {
	Start    time.Time     // when measuring began, after warm-up
	Duration time.Duration // measured time; see Run for how it is taken
	// Offered is the offered calls per second (for a ramp, the mean over
	// the measured time); 0 in closed loop.
	Offered float64

	Calls   int64 // calls that ended and were timed, failed ones included
	Errors  int64 // timed calls that failed
	NotSent int64 // calls due while MaxInFlight calls were in flight
	CutOff  int64 // calls cancelled or still running when the run ended

	Codes    map[string]int64 // timed calls by code label, "OK" included
	Messages map[string]int64 // failed calls by error text
	// FirstError is the error text of the first timed call that failed.
	FirstError string
	// Addresses are the calls by the server address that served them,
	// when the target spread them over several and counted them (warm-up
	// included); nil otherwise. Run leaves it to the caller.
	Addresses map[string]int64

	// Inputs is the number of distinct request inputs (rows of a data
	// file) the calls used, when the caller counts them; 0 otherwise.
	Inputs int64

	// CPU is the CPU time, user and system, the process used while
	// measuring: the load generator's cost when it runs alone. Zero where
	// it cannot be measured.
	CPU time.Duration

	MaxLag  time.Duration // latest start of a call after its intended time
	MeanLag time.Duration // mean of that lag over timed calls

	Corrected *Histogram // latency of successful calls from the intended start
	Service   *Histogram // latency of successful calls from the actual send
	Failed    *Histogram // latency of failed calls from the intended start
	Extra     *Histogram // latencies targets recorded through a Recorder

	Series []Point   // one point per second of the measured time
	Steps  []*Result // one per pacer phase when there are several

	// Server is what the service's metrics endpoints reported over this
	// result's time, one per endpoint, when the caller scraped them; Run
	// leaves it to the caller and Merge drops it.
	Server []ServerStats
}

// A Point is one interval of the time series, normally a second.
type Point struct {
	At      time.Duration // start, as an offset from Result.Start
	Length  time.Duration
	Calls   int64 // calls that ended in the interval, failed ones included
	Errors  int64
	CPU     time.Duration // process CPU time used in the interval
	NotSent int64
	// Corrected latency percentiles of the successful calls that ended in
	// the interval.
	P50, P90, P99, Max time.Duration
}

// Rate is the successful calls per second that ended in the interval.
func (p Point) Rate() float64 {
	return perSecond(p.Calls-p.Errors, p.Length)
}

func newResult() *Result {
	return &Result{
		Codes:     make(map[string]int64),
		Messages:  make(map[string]int64),
		Corrected: NewHistogram(),
		Service:   NewHistogram(),
		Failed:    NewHistogram(),
		Extra:     NewHistogram(),
	}
}

// CPUPerCall is the process CPU time per timed call, or zero.
func (r *Result) CPUPerCall() time.Duration {
	if r.Calls == 0 {
		return 0
	}
	return r.CPU / time.Duration(r.Calls)
}

// Successes is the number of timed calls that succeeded.
func (r *Result) Successes() int64 {
	return r.Calls - r.Errors
}

// Rate is the calls per second achieved: successful timed calls over
// Duration. Failed calls do not count.
func (r *Result) Rate() float64 {
	return perSecond(r.Successes(), r.Duration)
}

// ErrorRate is the fraction (0 to 1) of timed calls that failed.
func (r *Result) ErrorRate() float64 {
	if r.Calls == 0 {
		return 0
	}
	return float64(r.Errors) / float64(r.Calls)
}

func perSecond(n int64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}

// Merge combines results of one test run on several machines or processes
// at once. Counts and histograms add up exactly, so percentiles of the
// merge are those of all calls together. Duration spans from the earliest
// Start to the latest end, and offered rates add up. Series points are
// merged by position: counts add, and the percentiles of a merged point
// are the highest of the inputs (an upper bound, as points keep no
// histogram). Steps are merged by position. The inputs are not changed.
func Merge(results ...*Result) *Result {
	out := newResult()
	var lagWeight time.Duration
	for _, r := range results {
		if r == nil {
			continue
		}
		out.span(r)
		out.add(r)
		lagWeight += r.MeanLag * time.Duration(r.Calls)
		out.Series = mergeSeries(out.Series, r.Series)
	}
	if out.Calls > 0 {
		out.MeanLag = lagWeight / time.Duration(out.Calls)
	}
	out.Steps = mergeSteps(results)
	return out
}

// span widens out's time span to cover r's.
func (out *Result) span(r *Result) {
	if r.Start.IsZero() || out.Start.IsZero() {
		if out.Start.IsZero() {
			out.Start = r.Start
		}
		out.Duration = max(out.Duration, r.Duration)
		return
	}
	end := maxTime(out.Start.Add(out.Duration), r.Start.Add(r.Duration))
	if r.Start.Before(out.Start) {
		out.Start = r.Start
	}
	out.Duration = end.Sub(out.Start)
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// add sums r's counts and histograms into out.
func (out *Result) add(r *Result) {
	out.Offered += r.Offered
	out.Calls += r.Calls
	out.Errors += r.Errors
	out.NotSent += r.NotSent
	out.CutOff += r.CutOff
	out.Inputs += r.Inputs
	out.CPU += r.CPU
	addLabels(out.Codes, r.Codes, maxCodes)
	addLabels(out.Messages, r.Messages, maxMessages)
	if len(r.Addresses) > 0 {
		if out.Addresses == nil {
			out.Addresses = map[string]int64{}
		}
		addLabels(out.Addresses, r.Addresses, maxCodes)
	}
	if out.FirstError == "" {
		out.FirstError = r.FirstError
	}
	out.MaxLag = max(out.MaxLag, r.MaxLag)
	out.Corrected.Merge(r.Corrected)
	out.Service.Merge(r.Service)
	out.Failed.Merge(r.Failed)
	out.Extra.Merge(r.Extra)
}

// addLabels adds the counts of src to dst, keeping at most limit labels.
func addLabels(dst, src map[string]int64, limit int) {
	for _, k := range sortedKeys(src) {
		if _, ok := dst[k]; !ok && len(dst) >= limit {
			dst[OtherLabel] += src[k]
			continue
		}
		dst[k] += src[k]
	}
}

func sortedKeys(m map[string]int64) []string {
	return slices.Sorted(maps.Keys(m))
}

func mergeSeries(dst, src []Point) []Point {
	for i, p := range src {
		if i >= len(dst) {
			dst = append(dst, p)
			continue
		}
		d := &dst[i]
		d.Length = max(d.Length, p.Length)
		d.Calls += p.Calls
		d.Errors += p.Errors
		d.NotSent += p.NotSent
		d.CPU += p.CPU
		d.P50, d.P90 = max(d.P50, p.P50), max(d.P90, p.P90)
		d.P99, d.Max = max(d.P99, p.P99), max(d.Max, p.Max)
	}
	return dst
}

func mergeSteps(results []*Result) []*Result {
	var n int
	for _, r := range results {
		if r != nil {
			n = max(n, len(r.Steps))
		}
	}
	steps := make([]*Result, n)
	for i := range steps {
		var parts []*Result
		for _, r := range results {
			if r != nil && i < len(r.Steps) {
				parts = append(parts, r.Steps[i])
			}
		}
		steps[i] = Merge(parts...)
	}
	if n == 0 {
		return nil
	}
	return steps
}
