package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// The text format parses with Prometheus's own parser and holds the
// result's figures, labelled, for the run and for each step.
func TestWriteMetricsText(t *testing.T) {
	r := ramp()
	var buf bytes.Buffer
	opts := MetricsOptions{Labels: map[string]string{"run": "r1", "flow": `say "hi"\n`}}
	if err := opts.WriteMetrics(&buf, r); err != nil {
		t.Fatal(err)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(&buf)
	if err != nil {
		t.Fatalf("the text does not parse: %v\n%s", err, buf.String())
	}
	value := func(name string, labels map[string]string) float64 {
		t.Helper()
		f := fams["rpckit_bench_"+name]
		if f == nil {
			t.Fatalf("no family %s", name)
		}
	metrics:
		for _, m := range f.Metric {
			got := map[string]string{}
			for _, l := range m.Label {
				got[l.GetName()] = l.GetValue()
			}
			if got["run"] != "r1" || got["flow"] != `say "hi"\n` {
				t.Fatalf("%s has labels %v", name, got)
			}
			if len(got) != len(labels)+2 {
				continue
			}
			for k, v := range labels {
				if got[k] != v {
					continue metrics
				}
			}
			return sampleValue(f.GetType(), m)
		}
		t.Fatalf("no %s%v", name, labels)
		return 0
	}
	checks := []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"calls_total", nil, float64(r.Calls)},
		{"calls_total", map[string]string{"step": "2"}, float64(r.Steps[1].Calls)},
		{"errors_total", map[string]string{"step": "2"}, float64(r.Steps[1].Errors)},
		{"not_sent_total", nil, float64(r.NotSent)},
		{"offered_rate", map[string]string{"step": "1"}, 100},
		{"rate", nil, r.Rate()},
		{"cpu_seconds_total", nil, r.CPU.Seconds()},
		{"latency_seconds", map[string]string{"quantile": "0.99"}, r.Corrected.Percentile(99).Seconds()},
		{"service_seconds", map[string]string{"quantile": "0.5", "step": "1"}, r.Steps[0].Service.Percentile(50).Seconds()},
	}
	for _, c := range checks {
		if got := value(c.name, c.labels); got != c.want {
			t.Errorf("%s%v = %g, want %g", c.name, c.labels, got, c.want)
		}
	}
	if strings.Contains(buf.String(), "# EOF") || fams["rpckit_bench_interval_calls"] != nil {
		t.Error("the text format has OpenMetrics parts")
	}
}

func sampleValue(typ dto.MetricType, m *dto.Metric) float64 {
	switch typ {
	case dto.MetricType_COUNTER:
		return m.GetCounter().GetValue()
	case dto.MetricType_GAUGE:
		return m.GetGauge().GetValue()
	}
	return m.GetUntyped().GetValue()
}

// OpenMetrics adds the time series, timestamped, and ends with # EOF.
func TestWriteMetricsOpenMetrics(t *testing.T) {
	var buf bytes.Buffer
	opts := MetricsOptions{Labels: map[string]string{"run": "r1", "flow": "f"}, OpenMetrics: true}
	if err := opts.WriteMetrics(&buf, ramp()); err != nil {
		t.Fatal(err)
	}
	golden(t, "ramp.om", buf.Bytes())
}

// Several flows share each family; their samples are labelled by flow.
func TestWriteFlowsMetrics(t *testing.T) {
	r1, r2 := ramp(), stepResult(t0, 50, 300, time.Millisecond, 0)
	runs := []Run{{Name: "a", Result: r1}, {Name: "b", Result: r2}}
	var buf bytes.Buffer
	if err := (MetricsOptions{Labels: map[string]string{"run": "r1"}}).WriteFlowsMetrics(&buf, runs); err != nil {
		t.Fatal(err)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(&buf)
	if err != nil {
		t.Fatalf("the text does not parse: %v", err)
	}
	got := map[string]float64{}
	for _, m := range fams["rpckit_bench_calls_total"].Metric {
		l := map[string]string{}
		for _, p := range m.Label {
			l[p.GetName()] = p.GetValue()
		}
		if l["run"] != "r1" {
			t.Errorf("a sample has run=%q", l["run"])
		}
		got[l["flow"]+"/"+l["step"]] = m.GetCounter().GetValue()
	}
	want := map[string]float64{"a/": 2500, "a/1": 1000, "a/2": 1500, "b/": 300}
	if len(got) != len(want) {
		t.Errorf("calls_total samples %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("calls_total %s = %g, want %g", k, got[k], v)
		}
	}
}
