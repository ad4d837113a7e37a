package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/rpckit/rpckit/internal/promscrape"
	"github.com/rpckit/rpckit/load"
	"github.com/spf13/pflag"
)

// targetFlags are bench's --target-metrics and --target-metric.
type targetFlags struct {
	urls    []string
	metrics []string
}

func (f *targetFlags) register(fs *pflag.FlagSet) {
	fs.StringArrayVar(&f.urls, "target-metrics", nil, "scrape the service's Prometheus metrics at `URL` during the run and report its CPU, memory, GC and latency beside the client's (repeatable)")
	fs.StringArrayVar(&f.metrics, "target-metric", nil, "with --target-metrics, also report the metric `NAME` (counters as a rate, gauges last and max, histograms p50/p99; repeatable)")
}

// check refuses a URL that is not http(s) and names that are not metric
// names, before the run.
func (f *targetFlags) check() error {
	for _, u := range f.urls {
		if err := promscrape.CheckURL(u); err != nil {
			return usagef("--target-metrics: %v", err)
		}
	}
	for _, n := range f.metrics {
		if err := promscrape.CheckName(n); err != nil {
			return usagef("--target-metric: %v", err)
		}
	}
	if len(f.metrics) > 0 && len(f.urls) == 0 {
		return usagef("--target-metric names a metric of --target-metrics; give that too")
	}
	return nil
}

// startScraper scrapes the --target-metrics endpoints while the flows
// run, also at their steps' boundaries; nil without any.
func (f *targetFlags) startScraper(ctx context.Context, sc load.Scenario) *promscrape.Scraper {
	if len(f.urls) == 0 {
		return nil
	}
	return promscrape.Start(ctx, promscrape.Options{URLs: f.urls, Metrics: f.metrics, Marks: scenarioMarks(sc)})
}

// scenarioMarks are the times, from the start, at which the flows'
// measuring and steps begin and end, as far as they are known ahead.
func scenarioMarks(sc load.Scenario) []time.Duration {
	var marks []time.Duration
	for _, fl := range sc.Flows {
		o := fl.Options
		marks = append(marks, o.Warmup)
		if o.Duration > 0 {
			marks = append(marks, o.Warmup+o.Duration)
		}
		pacer := o.Pacer
		if pacer == nil && fl.Weight > 0 {
			pacer = sc.Pacer
		}
		marks = append(marks, phaseMarks(pacer, o.Callers, o.Warmup)...)
	}
	return sortedMarks(marks)
}

// phaseMarks are the ends of a pacer's phases or of callers' stages,
// after warm-up.
func phaseMarks(pacer load.Pacer, stages []load.Stage, warmup time.Duration) []time.Duration {
	var marks []time.Duration
	if pacer != nil {
		for _, ph := range pacer.Phases() {
			marks = append(marks, warmup+ph.Start, warmup+ph.Start+ph.Length)
		}
	}
	at := warmup
	for _, st := range stages {
		at += st.Length
		marks = append(marks, at)
	}
	return marks
}

// sortedMarks sorts marks and drops repeats.
func sortedMarks(marks []time.Duration) []time.Duration {
	slices.Sort(marks)
	out := marks[:0]
	for _, m := range marks {
		if len(out) == 0 || m != out[len(out)-1] {
			out = append(out, m)
		}
	}
	return out
}

// addServerStats stops the scraper and sets what the endpoints reported
// on the run's total and its steps, and on the flow when there is one
// (its result is the total); warns on stderr of failed scrapes.
func addServerStats(sc *promscrape.Scraper, stderr io.Writer, total *load.Result) {
	if sc == nil {
		return
	}
	sc.Stop()
	total.Server = sc.Stats(total.Start, total.Start.Add(total.Duration), true)
	for _, st := range total.Steps {
		st.Server = sc.Stats(st.Start, st.Start.Add(st.Duration), false)
	}
	for _, s := range total.Server {
		warnScrapes(stderr, s)
	}
}

// warnScrapes says on stderr when scrapes of an endpoint failed: the run
// goes on and its exit status stays the calls' own.
func warnScrapes(stderr io.Writer, s load.ServerStats) {
	switch {
	case s.Failed == 0:
	case s.Failed == s.Scrapes:
		printError(stderr, fmt.Errorf("warning: --target-metrics %s: every scrape failed (%d), so the report has no server figures: %s", s.URL, s.Failed, s.FirstError))
	default:
		printError(stderr, fmt.Errorf("warning: --target-metrics %s: %d of %d scrapes failed: %s", s.URL, s.Failed, s.Scrapes, s.FirstError))
	}
}

// stopScraper stops a scraper whose figures are not wanted.
func stopScraper(sc *promscrape.Scraper) {
	if sc != nil {
		sc.Stop()
	}
}
