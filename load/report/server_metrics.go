package report

import (
	"time"

	"github.com/rpckit/rpckit/load"
)

// A targetFamily is one figure of the target's endpoints written as
// metrics: its value, and whether the endpoint reported it.
type targetFamily struct {
	name, typ, help string
	of              func(load.ServerStats) (float64, bool)
}

// targetFamilies are the target's figures over each result's measured
// time, from its Prometheus endpoints (bench --target-metrics).
func targetFamilies() []targetFamily {
	return []targetFamily{
		{"target_cpu_seconds", "counter", "CPU time the target process used while measuring (process_cpu_seconds_total).",
			func(t load.ServerStats) (float64, bool) { return t.CPU.Seconds(), t.HasCPU }},
		{"target_resident_memory_max_bytes", "gauge", "Highest resident memory the target reported (process_resident_memory_bytes).",
			func(t load.ServerStats) (float64, bool) { return float64(t.MaxRSS), t.HasRSS }},
		{"target_goroutines_max", "gauge", "Most goroutines the target reported (go_goroutines).",
			func(t load.ServerStats) (float64, bool) { return float64(t.MaxGoroutines), t.HasGoroutines }},
		{"target_gc_pause_seconds", "counter", "The target's summed GC pauses while measuring (go_gc_duration_seconds).",
			func(t load.ServerStats) (float64, bool) { return t.GCPause.Seconds(), t.HasGC }},
	}
}

// targets writes what the target's endpoints reported, for each set and
// step that has them, labelled target="URL"; the service's own latency by
// method (no method label: all methods) and quantile.
func (m *metricWriter) targets(each func(func([][2]string, *load.Result))) {
	if !anyServer(each) {
		return
	}
	for _, f := range targetFamilies() {
		m.family(f.name, f.typ, f.help)
		name := f.name
		if f.typ == "counter" {
			name += "_total"
		}
		eachTarget(each, func(labels [][2]string, t load.ServerStats) {
			if v, ok := f.of(t); ok {
				m.sample(name, labels, v, time.Time{})
			}
		})
	}
	m.family("target_latency_seconds", "gauge", "The service's own handling time while measuring, by method and quantile.")
	eachTarget(each, func(labels [][2]string, t load.ServerStats) {
		for _, l := range t.Latency {
			ls := labels[:len(labels):len(labels)]
			if l.Method != "" {
				ls = append(ls, [2]string{"method", l.Method})
			}
			m.sample("target_latency_seconds", append(ls, [2]string{"quantile", "0.5"}), l.P50.Seconds(), time.Time{})
			m.sample("target_latency_seconds", append(ls[:len(ls):len(ls)], [2]string{"quantile", "0.99"}), l.P99.Seconds(), time.Time{})
		}
	})
}

// eachTarget calls v for every endpoint of every set and step, with the
// step's labels and target="URL".
func eachTarget(each func(func([][2]string, *load.Result)), v func([][2]string, load.ServerStats)) {
	each(func(labels [][2]string, s *load.Result) {
		for _, t := range s.Server {
			v(append(labels[:len(labels):len(labels)], [2]string{"target", t.URL}), t)
		}
	})
}

// anyServer reports whether any set or step has an endpoint's figures.
func anyServer(each func(func([][2]string, *load.Result))) bool {
	found := false
	each(func(_ [][2]string, s *load.Result) { found = found || len(s.Server) > 0 })
	return found
}
