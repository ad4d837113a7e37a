package report

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/rpckit/rpckit/load"
)

// MetricsOptions label and shape a result written as Prometheus metrics.
// The zero value writes the text exposition format without labels.
type MetricsOptions struct {
	// Labels are added to every sample, such as run and flow.
	Labels map[string]string
	// OpenMetrics writes the OpenMetrics text format, with the time
	// series as samples timestamped at the end of each interval, and the
	// closing "# EOF". Otherwise the text exposition format (version
	// 0.0.4) without timestamps, which is what a Pushgateway takes.
	OpenMetrics bool
}

// WriteMetrics writes r as metrics named rpckit_bench_*: the counts, the
// offered and achieved rates, the corrected and service-time latency
// quantiles, the mean schedule lag, the client CPU time, the same for each
// step of a ramp (labelled step="1" and on), what the target's endpoints
// reported (rpckit_bench_target_*, labelled target="URL"), and with
// OpenMetrics, the time series.
func (o MetricsOptions) WriteMetrics(w io.Writer, r *load.Result) error {
	return o.write(w, []metricSet{{labelPairs(o.Labels), r}})
}

// WriteFlowsMetrics writes the metrics of several flows, as WriteMetrics
// does for one, each flow's labelled flow="NAME" after its Run's Name.
func (o MetricsOptions) WriteFlowsMetrics(w io.Writer, runs []Run) error {
	sets := make([]metricSet, len(runs))
	for i, run := range runs {
		labels := map[string]string{"flow": run.Name}
		for k, v := range o.Labels {
			if k != "flow" {
				labels[k] = v
			}
		}
		sets[i] = metricSet{labelPairs(labels), run.Result}
	}
	return o.write(w, sets)
}

// A metricSet is one result and the labels of its samples.
type metricSet struct {
	labels [][2]string
	r      *load.Result
}

func (o MetricsOptions) write(w io.Writer, sets []metricSet) error {
	m := &metricWriter{w: bufio.NewWriter(w), om: o.OpenMetrics}
	// each calls v for every set and step, with the labels of its samples.
	each := func(v func(labels [][2]string, s *load.Result)) {
		for _, set := range sets {
			steps := []*load.Result{set.r}
			if len(set.r.Steps) > 1 {
				steps = append(steps, set.r.Steps...)
			}
			for i, s := range steps {
				v(append(append([][2]string{}, set.labels...), stepLabel(i)...), s)
			}
		}
	}
	sample := func(name string, v func(*load.Result) float64) {
		each(func(labels [][2]string, s *load.Result) { m.sample(name, labels, v(s), time.Time{}) })
	}
	m.family("calls", "counter", "Calls that ended and were timed, failed ones included.")
	sample("calls_total", func(s *load.Result) float64 { return float64(s.Calls) })
	m.family("errors", "counter", "Timed calls that failed.")
	sample("errors_total", func(s *load.Result) float64 { return float64(s.Errors) })
	m.family("not_sent", "counter", "Calls due while the cap on calls in flight was reached.")
	sample("not_sent_total", func(s *load.Result) float64 { return float64(s.NotSent) })
	m.family("offered_rate", "gauge", "Offered calls per second; 0 in closed loop.")
	sample("offered_rate", func(s *load.Result) float64 { return s.Offered })
	m.family("rate", "gauge", "Successful calls per second.")
	sample("rate", func(s *load.Result) float64 { return s.Rate() })
	m.family("duration_seconds", "gauge", "Measured time.")
	sample("duration_seconds", func(s *load.Result) float64 { return s.Duration.Seconds() })
	m.family("lag_mean_seconds", "gauge", "Mean lag of calls' sends after their intended starts.")
	sample("lag_mean_seconds", func(s *load.Result) float64 { return s.MeanLag.Seconds() })
	m.family("cpu_seconds", "counter", "CPU time the load generator used while measuring.")
	for _, set := range sets {
		m.sample("cpu_seconds_total", set.labels, set.r.CPU.Seconds(), time.Time{})
	}
	for _, h := range []struct {
		name, help string
		of         func(*load.Result) *load.Histogram
	}{
		{"latency_seconds", "Latency of successful calls from their intended start.", func(s *load.Result) *load.Histogram { return s.Corrected }},
		{"service_seconds", "Latency of successful calls from their send.", func(s *load.Result) *load.Histogram { return s.Service }},
	} {
		m.family(h.name, "gauge", h.help+" by quantile.")
		each(func(labels [][2]string, s *load.Result) {
			for _, q := range []float64{0.5, 0.9, 0.99, 0.999} {
				l := append(labels[:len(labels):len(labels)], [2]string{"quantile", strconv.FormatFloat(q, 'g', -1, 64)})
				m.sample(h.name, l, h.of(s).Percentile(q*100).Seconds(), time.Time{})
			}
		})
	}
	m.targets(each)
	if o.OpenMetrics {
		m.series(sets)
		m.line("# EOF")
	}
	if m.err != nil {
		return m.err
	}
	return m.w.Flush()
}

// series writes the time series: each interval's calls, errors and
// latency percentiles at the interval's end, each series whole and in
// time order, as OpenMetrics wants.
func (m *metricWriter) series(sets []metricSet) {
	for _, v := range []struct {
		name, help string
		quantile   string
		of         func(load.Point) float64
	}{
		{"interval_calls", "Calls that ended in the interval.", "", func(p load.Point) float64 { return float64(p.Calls) }},
		{"interval_errors", "Failed calls that ended in the interval.", "", func(p load.Point) float64 { return float64(p.Errors) }},
		{"interval_latency_seconds", "Latency of the interval's successful calls by quantile.", "0.5", func(p load.Point) float64 { return p.P50.Seconds() }},
		{"interval_latency_seconds", "", "0.9", func(p load.Point) float64 { return p.P90.Seconds() }},
		{"interval_latency_seconds", "", "0.99", func(p load.Point) float64 { return p.P99.Seconds() }},
		{"interval_latency_seconds", "", "1", func(p load.Point) float64 { return p.Max.Seconds() }},
	} {
		if v.help != "" {
			m.family(v.name, "gauge", v.help)
		}
		for _, set := range sets {
			labels := set.labels
			if v.quantile != "" {
				labels = append(labels[:len(labels):len(labels)], [2]string{"quantile", v.quantile})
			}
			for _, p := range set.r.Series {
				m.sample(v.name, labels, v.of(p), set.r.Start.Add(p.At+p.Length))
			}
		}
	}
}

// stepLabel is no label for the whole run (i == 0), step="i" for step i.
func stepLabel(i int) [][2]string {
	if i == 0 {
		return nil
	}
	return [][2]string{{"step", strconv.Itoa(i)}}
}

func labelPairs(m map[string]string) [][2]string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([][2]string, len(keys))
	for i, k := range keys {
		out[i] = [2]string{k, m[k]}
	}
	return out
}

// A metricWriter writes families and samples, keeping the first error.
type metricWriter struct {
	w   *bufio.Writer
	om  bool
	err error
}

const metricPrefix = "rpckit_bench_"

// family writes the HELP and TYPE lines. A counter's family is named
// without _total in OpenMetrics and with it in the text format.
func (m *metricWriter) family(name, typ, help string) {
	if typ == "counter" && !m.om {
		name += "_total"
	}
	m.line(fmt.Sprintf("# HELP %s%s %s", metricPrefix, name, help))
	m.line(fmt.Sprintf("# TYPE %s%s %s", metricPrefix, name, typ))
}

func (m *metricWriter) sample(name string, labels [][2]string, v float64, at time.Time) {
	var b strings.Builder
	b.WriteString(metricPrefix + name)
	if len(labels) > 0 {
		b.WriteByte('{')
		for i, l := range labels {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%s=\"%s\"", l[0], escapeLabel(l[1]))
		}
		b.WriteByte('}')
	}
	b.WriteByte(' ')
	b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
	if !at.IsZero() {
		// OpenMetrics timestamps are in seconds.
		b.WriteByte(' ')
		b.WriteString(strconv.FormatFloat(float64(at.UnixMilli())/1e3, 'f', 3, 64))
	}
	m.line(b.String())
}

func (m *metricWriter) line(s string) {
	if m.err == nil {
		_, m.err = m.w.WriteString(s + "\n")
	}
}

// escapeLabel escapes a label value: backslash, double quote and line
// feed.
func escapeLabel(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s)
}
