package promscrape

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// Names of the metrics the summaries read.
const (
	cpuName        = "process_cpu_seconds_total"
	rssName        = "process_resident_memory_bytes"
	goroutinesName = "go_goroutines"
	gcName         = "go_gc_duration_seconds"
	handlingName   = "grpc_server_handling_seconds"
	// The gateway's own, when there is no gRPC server's.
	gatewayName = "rpckit_gateway_request_duration_seconds"
)

// maxMethods bounds the methods of grpc_server_handling_seconds kept per
// scrape; the rest count in the all-methods histogram only. Methods that
// served no call yet are not kept (they count from zero when they do).
const maxMethods = 20

// A sample is what one scrape read: the few values the summaries use.
type sample struct {
	cpu, rss, goroutines value
	gcSum, gcCount       value
	all                  *hist            // grpc_server_handling_seconds, every method
	methods              map[string]*hist // by "service/method"
	named                map[string]named // the metrics asked for by name
}

// A value is a number an endpoint may not report.
type value struct {
	v  float64
	ok bool
}

// A hist is a cumulative histogram: counts[i] observations at or below
// bounds[i], the last bound +Inf.
type hist struct {
	bounds, counts []float64
	count, sum     float64
}

// A named metric is a family summed over its series.
type named struct {
	kind  string
	value float64 // counter, gauge, untyped; the count of a histogram or summary
	h     *hist   // a histogram's buckets
}

// parse reads a text-format exposition, keeping the series the summaries
// read and the families named in names. Errors name the line.
func parse(r io.Reader, names []string) (*sample, error) {
	fams, err := families(r)
	if err != nil {
		return nil, err
	}
	return sampleOf(fams, names), nil
}

// families parses the text format; a syntax error names its line.
func families(r io.Reader) (map[string]*dto.MetricFamily, error) {
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(r)
	var pe expfmt.ParseError
	if errors.As(err, &pe) {
		return nil, fmt.Errorf("line %d: %s", pe.Line, pe.Msg)
	}
	return fams, err
}

// sampleOf keeps what the summaries read of the families.
func sampleOf(fams map[string]*dto.MetricFamily, names []string) *sample {
	s := &sample{
		cpu:        scalar(fams[cpuName]),
		rss:        scalar(fams[rssName]),
		goroutines: scalar(fams[goroutinesName]),
	}
	s.gcSum, s.gcCount = summaryOf(fams[gcName])
	if f, ok := fams[handlingName]; ok {
		s.all, s.methods = handling(f, grpcMethod)
	} else {
		s.all, s.methods = handling(fams[gatewayName], gatewayRoute)
	}
	for _, n := range names {
		if f, ok := fams[n]; ok {
			if s.named == nil {
				s.named = map[string]named{}
			}
			s.named[n] = namedOf(f)
		}
	}
	return s
}

// scalar is the sum of a counter's, gauge's or untyped family's series.
func scalar(f *dto.MetricFamily) value {
	if f == nil || len(f.GetMetric()) == 0 {
		return value{}
	}
	var v float64
	for _, m := range f.GetMetric() {
		x, ok := scalarOf(m)
		if !ok {
			return value{}
		}
		v += x
	}
	return value{v, finite(v)}
}

// scalarOf is a counter's, gauge's or untyped series' value.
func scalarOf(m *dto.Metric) (float64, bool) {
	switch {
	case m.GetCounter() != nil:
		return m.GetCounter().GetValue(), true
	case m.GetGauge() != nil:
		return m.GetGauge().GetValue(), true
	case m.GetUntyped() != nil:
		return m.GetUntyped().GetValue(), true
	}
	return 0, false
}

// summaryOf is a summary's sum and count, over its series.
func summaryOf(f *dto.MetricFamily) (sum, count value) {
	if f == nil || f.GetType() != dto.MetricType_SUMMARY || len(f.GetMetric()) == 0 {
		return value{}, value{}
	}
	var s, c float64
	for _, m := range f.GetMetric() {
		s += m.GetSummary().GetSampleSum()
		c += float64(m.GetSummary().GetSampleCount())
	}
	return value{s, finite(s)}, value{c, true}
}

// handling is a latency histogram over every method, and by method (at
// most maxMethods of them), a series' method named by name.
func handling(f *dto.MetricFamily, name func(*dto.Metric) string) (*hist, map[string]*hist) {
	if f == nil || f.GetType() != dto.MetricType_HISTOGRAM {
		return nil, nil
	}
	var all *hist
	methods := map[string]*hist{}
	for _, m := range f.GetMetric() {
		h := histOf(m.GetHistogram())
		if h == nil {
			continue
		}
		all = all.plus(h)
		if h.total() == 0 {
			continue
		}
		n := name(m)
		if old, ok := methods[n]; ok || len(methods) < maxMethods {
			methods[n] = old.plus(h)
		}
	}
	return all, methods
}

// grpcMethod is "service/method" of a grpc_server_handling_seconds series.
func grpcMethod(m *dto.Metric) string {
	return label(m, "grpc_service") + "/" + label(m, "grpc_method")
}

// gatewayRoute is "protocol route" of a gateway's series: "rest GET
// /v1/rank".
func gatewayRoute(m *dto.Metric) string {
	return label(m, "protocol") + " " + label(m, "route")
}

func label(m *dto.Metric, name string) string {
	for _, l := range m.GetLabel() {
		if l.GetName() == name {
			return l.GetValue()
		}
	}
	return ""
}

// histOf is a classic histogram's cumulative buckets, +Inf last; nil when
// it has none or they are not in order.
func histOf(h *dto.Histogram) *hist {
	if h == nil || len(h.GetBucket()) == 0 {
		return nil
	}
	out := &hist{count: float64(h.GetSampleCount()), sum: h.GetSampleSum()}
	for _, b := range h.GetBucket() {
		ub := b.GetUpperBound()
		if math.IsNaN(ub) || len(out.bounds) > 0 && ub <= out.bounds[len(out.bounds)-1] {
			return nil
		}
		out.bounds = append(out.bounds, ub)
		out.counts = append(out.counts, float64(b.GetCumulativeCount()))
	}
	if !math.IsInf(out.bounds[len(out.bounds)-1], 1) {
		out.bounds = append(out.bounds, math.Inf(1))
		out.counts = append(out.counts, out.count)
	}
	return out
}

// plus is h and o added bucket by bucket; o alone when h is nil, and h
// unchanged when their bounds differ.
func (h *hist) plus(o *hist) *hist {
	if h == nil {
		return o.clone()
	}
	if o == nil || !slices.Equal(h.bounds, o.bounds) {
		return h
	}
	for i := range h.counts {
		h.counts[i] += o.counts[i]
	}
	h.count += o.count
	h.sum += o.sum
	return h
}

func (h *hist) clone() *hist {
	if h == nil {
		return nil
	}
	return &hist{bounds: slices.Clone(h.bounds), counts: slices.Clone(h.counts), count: h.count, sum: h.sum}
}

// namedOf sums a family asked for by name over its series.
func namedOf(f *dto.MetricFamily) named {
	n := named{kind: strings.ToLower(f.GetType().String())}
	switch f.GetType() {
	case dto.MetricType_HISTOGRAM:
		for _, m := range f.GetMetric() {
			n.h = n.h.plus(histOf(m.GetHistogram()))
			n.value += float64(m.GetHistogram().GetSampleCount())
		}
	case dto.MetricType_SUMMARY:
		_, c := summaryOf(f)
		n.value = c.v
	default:
		n.value = scalar(f).v
	}
	return n
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
