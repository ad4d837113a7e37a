package report

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/rpckit/rpckit/load"
	"golang.org/x/net/html"
)

// htmlReport renders runs and returns the page and its data element.
func htmlReport(t *testing.T, opts HTMLOptions, runs ...Run) (string, map[string]any) {
	t.Helper()
	var b bytes.Buffer
	if err := WriteHTML(&b, opts, runs...); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	var raw string
	var scripts int
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "script" {
			scripts++
			for _, a := range n.Attr {
				if a.Key == "id" && a.Val == "rpckit-data" && n.FirstChild != nil {
					raw = n.FirstChild.Data
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if scripts != 3 {
		t.Errorf("%d script elements, want 3 (data, uPlot, report)", scripts)
	}
	var data map[string]any
	if err := json.Unmarshal([]byte(raw), &data); err != nil {
		t.Fatalf("data element: %v", err)
	}
	return b.String(), data
}

func TestHTMLData(t *testing.T) {
	slo, err := ParseSLO("p99<50ms,errors<0.5%")
	if err != nil {
		t.Fatal(err)
	}
	r, c := ramp(), stepResult(t0, 100, 1000, 1e6, 0)
	opts := HTMLOptions{Title: "ramp vs constant", SLO: slo, Settings: []string{"rate 100:200:+100"}, Generated: t0}
	_, data := htmlReport(t, opts, Run{Name: "ramp", Result: r}, Run{Name: "constant", Result: c})

	runs := data["runs"].([]any)
	if len(runs) != 2 {
		t.Fatalf("%d runs", len(runs))
	}
	rr := runs[0].(map[string]any)
	sum := rr["summary"].(map[string]any)
	if sum["calls"].(float64) != float64(r.Calls) || sum["p99_ms"].(float64) != ms(r.Corrected.Percentile(99)) {
		t.Errorf("summary %v does not match the result", sum)
	}
	if got := len(rr["series"].(map[string]any)["p99_ms"].([]any)); got != len(r.Series) || len(data["seconds"].([]any)) != len(r.Series) {
		t.Errorf("p99 series of %d points, want %d", got, len(r.Series))
	}
	// The constant run's series is shorter: padded with nulls.
	cp99 := runs[1].(map[string]any)["series"].(map[string]any)["p99_ms"].([]any)
	if len(cp99) != len(r.Series) || cp99[len(c.Series)] != nil || cp99[0] == nil {
		t.Errorf("constant run's padded series: %v", cp99)
	}
	steps := rr["steps"].([]any)
	if len(steps) != 2 || steps[0].(map[string]any)["pass"] != true || steps[1].(map[string]any)["pass"] != false {
		t.Errorf("steps %v: want the first to pass and the second to fail", steps)
	}
	capacity := rr["capacity"].(map[string]any)
	if capacity["rps"].(float64) != 100 || capacity["ok"] != true {
		t.Errorf("capacity %v, want 100/s", capacity)
	}
	if rates := data["step_rates"].([]any); len(rates) != 2 || rates[1].(float64) != 200 {
		t.Errorf("step rates %v", rates)
	}
	if data["slo_latency_ms"].(float64) != 50 || data["slo"] != "p99<50ms,errors<0.5%" {
		t.Errorf("slo %v, limit %v", data["slo"], data["slo_latency_ms"])
	}
	spec := rr["spectrum_ms"].([]any)
	if len(spec) != len(data["spectrum_q"].([]any)) || spec[len(spec)-1].(float64) != ms(r.Corrected.Max()) {
		t.Errorf("spectrum of %d points ending at %v, want the max %v", len(spec), spec[len(spec)-1], ms(r.Corrected.Max()))
	}
	for i := 1; i < len(spec); i++ {
		if spec[i].(float64) < spec[i-1].(float64) {
			t.Fatalf("spectrum decreases at %d", i)
		}
	}
}

// The embedded data is golden: the page's script reads nothing else.
func TestHTMLDataGolden(t *testing.T) {
	slo, _ := ParseSLO("p99<50ms")
	d := newHTMLData(HTMLOptions{Title: "ramp", SLO: slo, Generated: t0}, []Run{{Name: "ramp", Result: ramp()}})
	b, err := json.MarshalIndent(d, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "ramp.html.json", append(b, '\n'))
}

// Names and titles are data, never markup.
func TestHTMLEscaping(t *testing.T) {
	evil := `</script><script>alert(1)</script><b>&`
	page, data := htmlReport(t, HTMLOptions{Title: evil, Settings: []string{evil}}, Run{Name: evil, Result: ramp()})
	if strings.Contains(page, "<script>alert") || strings.Contains(page, "<b>&") {
		t.Error("a name or title reached the page as markup")
	}
	if data["title"] != evil || data["runs"].([]any)[0].(map[string]any)["name"] != evil {
		t.Error("the data does not carry the names as given")
	}
}

// The report loads nothing from anywhere.
func TestHTMLSelfContained(t *testing.T) {
	page, _ := htmlReport(t, HTMLOptions{}, Run{Name: "a", Result: ramp()})
	if m := regexp.MustCompile(`(?i)(src|href)\s*=\s*["']?(https?:)?//`).FindString(page); m != "" {
		t.Errorf("the page refers to a remote resource: %q", m)
	}
	if !strings.Contains(page, "<title>rpckit bench</title>") {
		t.Error("the default title is missing")
	}
}

func TestHTMLErrors(t *testing.T) {
	var b bytes.Buffer
	if err := WriteHTML(&b, HTMLOptions{}); err == nil {
		t.Error("no runs: want an error")
	}
	if err := WriteHTML(&b, HTMLOptions{}, Run{Name: "x"}); err == nil || !strings.Contains(err.Error(), `"x"`) {
		t.Errorf("a run without result: %v", err)
	}
	_, data := htmlReport(t, HTMLOptions{}, Run{Name: "empty", Result: &load.Result{Corrected: load.NewHistogram()}})
	if len(data["runs"].([]any)) != 1 {
		t.Error("an empty result is still a run")
	}
}
