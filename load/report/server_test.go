package report

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/rpckit/rpckit/load"
)

// serverStats are an endpoint's figures: cores, memory and latency, a
// counter, a gauge and a metric the endpoint lacked.
func serverStats(cores float64) load.ServerStats {
	return load.ServerStats{URL: "http://127.0.0.1:9090/metrics", Scrapes: 6, Failed: 1, FirstError: "HTTP 503 Service Unavailable",
		Span: 2 * time.Second, CPU: time.Duration(cores * 2 * float64(time.Second)), HasCPU: true,
		MaxRSS: 48 << 20, HasRSS: true, MaxGoroutines: 21, HasGoroutines: true,
		GCs: 3, GCPause: 600 * time.Microsecond, HasGC: true,
		Latency: []load.ServerLatency{{Calls: 400, P50: 300 * time.Microsecond, P99: 2 * time.Millisecond},
			{Method: "a.S/Get", Calls: 400, P50: 300 * time.Microsecond, P99: 2 * time.Millisecond}},
		Metrics: []load.ServerMetric{{Name: "app_calls_total", Kind: "counter", Found: true, Rate: 200},
			{Name: "app_queue", Kind: "gauge", Found: true, Last: 3, Max: 7}, {Name: "app_absent"}}}
}

func rampWithServer() *load.Result {
	r := ramp()
	r.Server = []load.ServerStats{serverStats(0.5)}
	for i, s := range r.Steps {
		s.Server = []load.ServerStats{serverStats(0.25 * float64(i+1))}
	}
	return r
}

// TestServerJSON: the endpoints' figures go into target_metrics and come
// back from it as they were.
func TestServerJSON(t *testing.T) {
	r := rampWithServer()
	var buf bytes.Buffer
	if err := WriteJSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"target_metrics": [`, `"cores": 0.5`, `"max_rss_bytes": 50331648`, `"found": false`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("JSON lacks %s", want)
		}
	}
	back, err := ReadJSON(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Server, r.Server) || !reflect.DeepEqual(back.Steps[1].Server, r.Steps[1].Server) {
		t.Errorf("read back %+v\nwant %+v", back.Server, r.Server)
	}
}

// TestServerText: the summary gives the server's CPU per call beside the
// client's, and a ramp a table of the server per step.
func TestServerText(t *testing.T) {
	r := rampWithServer()
	var buf bytes.Buffer
	if err := WriteText(&buf, r, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	if strings.Contains(text, "all methods") {
		t.Errorf("the handling time of all methods, with a single method, is shown twice:\n%s", text)
	}
	// Half a core over the run's 20 s, per call.
	perCall := fmtUnit(10 * time.Second / time.Duration(r.Calls))
	for _, want := range []string{
		"Server http://127.0.0.1:9090/metrics (6 scrapes, 1 failed: HTTP 503 Service Unavailable):",
		"  CPU:            0.50 cores, " + perCall + " per call",
		"  Memory:         48.0 MiB resident at most",
		"  Handling:       p50 300.00 µs, p99 2.00 ms over 400 calls, a.S/Get",
		"  app_calls_total: counter, 200.00/s",
		"  app_queue:      gauge, last 3, max 7",
		"  app_absent:     not reported",
		"Server per step, http://127.0.0.1:9090/metrics",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	r.Server[0].Failed = r.Server[0].Scrapes
	buf.Reset()
	WriteText(&buf, r, TextOptions{})
	if !strings.Contains(buf.String(), "every scrape failed, so there are no server figures") {
		t.Errorf("all scrapes failed, and the text does not say so:\n%s", buf.String())
	}
}

// TestServerHTML: the HTML report has a table per endpoint, a row for the
// run and one per step, and says when every scrape failed.
func TestServerHTML(t *testing.T) {
	r := rampWithServer()
	page := serverPage(t, Run{Name: "ramp", Result: r})
	for _, want := range []string{`<section id="server">`, `<code>http://127.0.0.1:9090/metrics</code>`,
		`<tr><td class="text">run</td><td>0.50</td>`, `<tr><td class="text">step 2</td><td>0.50</td>`, `<td>48.0 MiB</td>`} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	r.Server[0].Failed = r.Server[0].Scrapes
	page = serverPage(t, Run{Name: "ramp", Result: r})
	if !strings.Contains(page, "Every scrape failed, so there are no server figures: HTTP 503") {
		t.Error("all scrapes failed, and the page does not say so")
	}
	if page := serverPage(t, Run{Name: "ramp", Result: ramp()}); strings.Contains(page, `id="server"`) {
		t.Error("a server section without scraped endpoints")
	}
}

func serverPage(t *testing.T, run Run) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteHTML(&b, HTMLOptions{}, run); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestServerMetrics: the endpoints' figures go into the metrics output,
// labelled by target, for the run and each step, and parse with
// Prometheus's own parser; a result without them writes no target family.
func TestServerMetrics(t *testing.T) {
	var buf bytes.Buffer
	if err := (MetricsOptions{Labels: map[string]string{"run": "r1"}}).WriteMetrics(&buf, rampWithServer()); err != nil {
		t.Fatal(err)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(&buf)
	if err != nil {
		t.Fatalf("the text does not parse: %v\n%s", err, buf.String())
	}
	url := serverStats(0).URL
	got := map[string]float64{}
	for name, f := range fams {
		if !strings.HasPrefix(name, "rpckit_bench_target_") {
			continue
		}
		for _, m := range f.Metric {
			l := map[string]string{}
			for _, p := range m.Label {
				l[p.GetName()] = p.GetValue()
			}
			if l["target"] != url || l["run"] != "r1" {
				t.Errorf("%s has labels %v", name, l)
			}
			got[strings.TrimPrefix(name, "rpckit_bench_target_")+"/"+l["step"]+"/"+l["method"]+"/"+l["quantile"]] = sampleValue(f.GetType(), m)
		}
	}
	want := map[string]float64{
		"cpu_seconds_total///": 1, "cpu_seconds_total/1//": 0.5, "cpu_seconds_total/2//": 1,
		"resident_memory_max_bytes///": 48 << 20, "goroutines_max/2//": 21, "gc_pause_seconds_total///": 0.0006,
		"latency_seconds///0.5": 0.0003, "latency_seconds/1/a.S/Get/0.99": 0.002,
	}
	for k, v := range want {
		if g, ok := got[k]; !ok || g != v {
			t.Errorf("%s = %g (found %v), want %g", k, g, ok, v)
		}
	}
	buf.Reset()
	if err := (MetricsOptions{}).WriteMetrics(&buf, ramp()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "target_") {
		t.Error("a result without target figures writes target families")
	}
}
