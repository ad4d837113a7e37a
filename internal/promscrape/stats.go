package promscrape

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/rpckit/rpckit/load"
)

// maxLatencyMethods bounds the methods listed in ServerStats.Latency.
const maxLatencyMethods = 10

// Stats are the endpoints' figures over [from, to], one per URL in the
// order given. CPU, GC, latency and counters are deltas between their
// values at from and at to, each interpolated linearly between the
// scrapes either side of it (or the closest scrape when none is on one
// side, which shortens Span); memory, goroutines and gauges are the
// highest seen by the scrapes within, or the closest around when none is.
// whole counts every scrape in Scrapes and Failed, for a whole run;
// otherwise those within [from, to].
func (sc *Scraper) Stats(from, to time.Time, whole bool) []load.ServerStats {
	out := make([]load.ServerStats, len(sc.targets))
	for i, t := range sc.targets {
		t.mu.Lock()
		scrapes := slices.Clone(t.scrapes)
		dropped, droppedFailed := t.dropped, t.droppedFailed
		t.mu.Unlock()
		out[i] = statsOf(t.url, scrapes, from, to, sc.opts.Metrics)
		if whole {
			out[i].Scrapes, out[i].Failed = countScrapes(scrapes, time.Time{}, time.Time{})
			out[i].Scrapes += dropped
			out[i].Failed += droppedFailed
		}
	}
	return out
}

// statsOf sums up one endpoint's scrapes over [from, to].
func statsOf(url string, scrapes []scrape, from, to time.Time, names []string) load.ServerStats {
	st := load.ServerStats{URL: url, FirstError: firstError(scrapes)}
	st.Scrapes, st.Failed = countScrapes(scrapes, from, to)
	w := window{ok: succeeded(scrapes), from: from, to: to}
	w.cpu(&st)
	w.gauges(&st)
	w.gc(&st)
	st.Latency = w.latency()
	for _, n := range names {
		st.Metrics = append(st.Metrics, w.named(n))
	}
	return st
}

// firstError is the text of the first failed scrape, or "".
func firstError(scrapes []scrape) string {
	for _, s := range scrapes {
		if s.err != nil {
			return s.err.Error()
		}
	}
	return ""
}

// succeeded are the scrapes that read a sample.
func succeeded(scrapes []scrape) []*timed {
	var ok []*timed
	for _, s := range scrapes {
		if s.err == nil {
			ok = append(ok, &timed{s.at, s.s})
		}
	}
	return ok
}

// countScrapes counts the scrapes in [from, to] (all of them when both
// are zero) and those that failed.
func countScrapes(scrapes []scrape, from, to time.Time) (n, failed int) {
	for _, s := range scrapes {
		if !from.IsZero() && (s.at.Before(from) || s.at.After(to)) {
			continue
		}
		n++
		if s.err != nil {
			failed++
		}
	}
	return n, failed
}

type timed struct {
	at time.Time
	s  *sample
}

// A window is the successful scrapes of an endpoint and a span of time.
type window struct {
	ok       []*timed
	from, to time.Time
}

// around is the last scrape at or before t and the first at or after it
// for which has is true; either may be nil.
func (w window) around(t time.Time, has func(*sample) bool) (before, after *timed) {
	for _, s := range w.ok {
		if !has(s.s) {
			continue
		}
		if !s.at.After(t) {
			before = s
		}
		if !s.at.Before(t) && after == nil {
			after = s
		}
	}
	return before, after
}

// at is a counter's value at t, interpolated between the scrapes around
// t, and the time the value is for (t, or the closest scrape's time). A
// counter that first shows after a scrape that worked without it starts
// from zero at that scrape: series appear with their first event.
func (w window) at(t time.Time, get func(*sample) value) (float64, time.Time, bool) {
	has := func(s *sample) bool { return get(s).ok }
	a, b := w.around(t, has)
	switch {
	case a == nil && b == nil:
		return 0, t, false
	case a == nil && w.lastBefore(t) != nil:
		return get(b.s).v * fraction(t, w.lastBefore(t), b), t, true
	case a == nil:
		return get(b.s).v, b.at, true
	case b == nil:
		return get(a.s).v, a.at, true
	case !b.at.After(a.at):
		return get(a.s).v, t, true
	}
	va, vb := get(a.s).v, get(b.s).v
	return va + (vb-va)*fraction(t, a, b), t, true
}

// lastBefore is the last scrape that worked at or before t, or nil.
func (w window) lastBefore(t time.Time) *timed {
	var last *timed
	for _, s := range w.ok {
		if !s.at.After(t) {
			last = s
		}
	}
	return last
}

// fraction is how far t is from a to b, 0 to 1.
func fraction(t time.Time, a, b *timed) float64 {
	return float64(t.Sub(a.at)) / float64(b.at.Sub(a.at))
}

// delta is a counter's change over the window and the time it covers;
// false when the counter is missing or went down (a restart).
func (w window) delta(get func(*sample) value) (float64, time.Duration, bool) {
	v0, t0, ok0 := w.at(w.from, get)
	v1, t1, ok1 := w.at(w.to, get)
	if !ok0 || !ok1 || v1 < v0 || !t1.After(t0) {
		return 0, 0, false
	}
	return v1 - v0, t1.Sub(t0), true
}

// The values of a sample the summaries read.
func cpuOf(s *sample) value        { return s.cpu }
func rssOf(s *sample) value        { return s.rss }
func goroutinesOf(s *sample) value { return s.goroutines }
func gcCountOf(s *sample) value    { return s.gcCount }
func gcSumOf(s *sample) value      { return s.gcSum }
func allOf(s *sample) *hist        { return s.all }

func (w window) cpu(st *load.ServerStats) {
	d, span, ok := w.delta(cpuOf)
	if ok {
		st.CPU, st.Span, st.HasCPU = seconds(d), span, true
	}
}

func (w window) gc(st *load.ServerStats) {
	n, _, okN := w.delta(gcCountOf)
	sum, _, okS := w.delta(gcSumOf)
	if okN && okS {
		st.GCs, st.GCPause, st.HasGC = int64(n+0.5), seconds(sum), true
	}
}

func (w window) gauges(st *load.ServerStats) {
	if v, ok := w.max(rssOf); ok {
		st.MaxRSS, st.HasRSS = int64(v), true
	}
	if v, ok := w.max(goroutinesOf); ok {
		st.MaxGoroutines, st.HasGoroutines = int64(v), true
	}
}

// max is the highest value of the scrapes within the window, or of the
// closest around it when none is within.
func (w window) max(get func(*sample) value) (float64, bool) {
	var m float64
	var found bool
	for _, s := range w.within(func(s *sample) bool { return get(s).ok }) {
		if v := get(s.s).v; !found || v > m {
			m, found = v, true
		}
	}
	return m, found
}

// last is the value of the last scrape in the window that has one, or
// of the closest around it when none is in it.
func (w window) last(get func(*sample) value) float64 {
	in := w.within(func(s *sample) bool { return get(s).ok })
	if len(in) == 0 {
		return 0
	}
	return get(in[len(in)-1].s).v
}

// within is the scrapes in the window that have a value, or the closest
// either side of it when none is in it.
func (w window) within(has func(*sample) bool) []*timed {
	var in []*timed
	for _, s := range w.ok {
		if has(s.s) && !s.at.Before(w.from) && !s.at.After(w.to) {
			in = append(in, s)
		}
	}
	if len(in) > 0 {
		return in
	}
	return w.closest(has)
}

// closest is the last scrape before the window and the first after it
// that have a value.
func (w window) closest(has func(*sample) bool) []*timed {
	var out []*timed
	if a, _ := w.around(w.from, has); a != nil {
		out = append(out, a)
	}
	if _, b := w.around(w.to, has); b != nil {
		out = append(out, b)
	}
	return out
}

// seconds is s seconds as a Duration; zero when s is not finite.
func seconds(s float64) time.Duration {
	if !finite(s) {
		return 0
	}
	return time.Duration(math.Round(s * float64(time.Second)))
}

// latency is grpc_server_handling_seconds over the window: all methods,
// then the busiest methods that served calls.
func (w window) latency() []load.ServerLatency {
	all := w.histDelta(allOf)
	if all == nil || all.total() <= 0 {
		return nil
	}
	out := []load.ServerLatency{latencyOf("", all)}
	methods := w.methodLatencies()
	slices.SortStableFunc(methods, func(a, b load.ServerLatency) int {
		return cmp.Or(cmp.Compare(b.Calls, a.Calls), cmp.Compare(a.Method, b.Method))
	})
	return append(out, methods[:min(len(methods), maxLatencyMethods)]...)
}

// methodLatencies are the latencies of the methods that served calls in
// the window.
func (w window) methodLatencies() []load.ServerLatency {
	var methods []load.ServerLatency
	for _, name := range w.methodNames() {
		h := w.histDelta(func(s *sample) *hist { return s.methods[name] })
		if h != nil && h.total() > 0 {
			methods = append(methods, latencyOf(name, h))
		}
	}
	return methods
}

// methodNames are the methods any scrape reported, sorted.
func (w window) methodNames() []string {
	seen := map[string]bool{}
	for _, s := range w.ok {
		for name := range s.s.methods {
			seen[name] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

func latencyOf(method string, h *hist) load.ServerLatency {
	return load.ServerLatency{Method: method, Calls: int64(h.total() + 0.5),
		P50: seconds(h.quantile(0.5)), P99: seconds(h.quantile(0.99))}
}

// histDelta is a histogram's change over the window, each bucket
// interpolated as counters are; nil when missing or reset.
func (w window) histDelta(get func(*sample) *hist) *hist {
	h0 := w.histAt(w.from, get)
	h1 := w.histAt(w.to, get)
	if h1 == nil {
		return nil
	}
	return h1.minus(h0)
}

// histAt is a histogram at t, interpolated bucket by bucket between the
// scrapes around t when their bounds agree, else the closest; one that
// first shows after a scrape that worked without it starts from empty
// there, as counters do.
func (w window) histAt(t time.Time, get func(*sample) *hist) *hist {
	a, b := w.around(t, func(s *sample) bool { return get(s) != nil })
	switch {
	case a == nil && b == nil:
		return nil
	case a == nil && w.lastBefore(t) != nil:
		hb := get(b.s)
		return hb.empty().toward(hb, fraction(t, w.lastBefore(t), b))
	case a == nil:
		return get(b.s)
	case b == nil || !b.at.After(a.at):
		return get(a.s)
	}
	ha, hb := get(a.s), get(b.s)
	if !slices.Equal(ha.bounds, hb.bounds) {
		return hb
	}
	return ha.toward(hb, fraction(t, a, b))
}

// named is a metric asked for by name over the window.
func (w window) named(name string) load.ServerMetric {
	m := load.ServerMetric{Name: name, Kind: w.kindOf(name)}
	if m.Kind == "" {
		return m
	}
	m.Found = true
	val := func(s *sample) value {
		n, ok := s.named[name]
		return value{n.value, ok && n.kind == m.Kind}
	}
	switch m.Kind {
	case "counter", "histogram", "summary":
		if d, span, ok := w.delta(val); ok && span > 0 {
			m.Rate = d / span.Seconds()
		}
	default:
		m.Max, _ = w.max(val)
		m.Last = w.last(val)
	}
	if m.Kind == "histogram" {
		m.P50, m.P99 = w.namedQuantiles(name)
	}
	return m
}

// kindOf is the type the last scrape that had the metric gave it, or "".
func (w window) kindOf(name string) string {
	var kind string
	for _, s := range w.ok {
		if n, ok := s.s.named[name]; ok {
			kind = n.kind
		}
	}
	return kind
}

// namedQuantiles are a histogram's median and 99th percentile over the
// window, in its own unit; zero without observations.
func (w window) namedQuantiles(name string) (p50, p99 float64) {
	h := w.histDelta(func(s *sample) *hist { return s.named[name].h })
	if h == nil || h.total() <= 0 {
		return 0, 0
	}
	return h.quantile(0.5), h.quantile(0.99)
}
