package report

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rpckit/rpckit/load"
	"golang.org/x/net/html"
)

// A parsed report: the page, its tree and its data element decoded.
type parsedReport struct {
	page string
	doc  *html.Node
	data htmlData
	raw  map[string]any // the data as generic JSON, to see nulls and names
}

func renderHTML(t *testing.T, opts HTMLOptions, runs ...Run) *parsedReport {
	t.Helper()
	var b bytes.Buffer
	if err := WriteHTML(&b, opts, runs...); err != nil {
		t.Fatal(err)
	}
	return parseReport(t, b.Bytes())
}

func parseReport(t *testing.T, page []byte) *parsedReport {
	t.Helper()
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	p := &parsedReport{page: string(page), doc: doc}
	el := byID(doc, "rpckit-data")
	if el == nil || attr(el, "type") != "application/json" || el.Data != "script" {
		t.Fatal(`no <script type="application/json" id="rpckit-data"> element`)
	}
	raw := text(el)
	if err := json.Unmarshal([]byte(raw), &p.data); err != nil {
		t.Fatalf("data element: %v", err)
	}
	if err := json.Unmarshal([]byte(raw), &p.raw); err != nil {
		t.Fatalf("data element: %v", err)
	}
	return p
}

func walk(n *html.Node, f func(*html.Node)) {
	f(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, f)
	}
}

func elements(n *html.Node, tag string) []*html.Node {
	var out []*html.Node
	walk(n, func(m *html.Node) {
		if m.Type == html.ElementNode && m.Data == tag {
			out = append(out, m)
		}
	})
	return out
}

func byID(n *html.Node, id string) *html.Node {
	var found *html.Node
	walk(n, func(m *html.Node) {
		if found == nil && m.Type == html.ElementNode && attr(m, "id") == id {
			found = m
		}
	})
	return found
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func text(n *html.Node) string {
	var b strings.Builder
	walk(n, func(m *html.Node) {
		if m.Type == html.TextNode {
			b.WriteString(m.Data)
		}
	})
	return b.String()
}

// cells is the text of each body row's cells of the first table in n.
func cells(n *html.Node) [][]string {
	var rows [][]string
	for _, tr := range elements(elements(n, "tbody")[0], "tr") {
		var row []string
		for _, td := range elements(tr, "td") {
			row = append(row, text(td))
		}
		rows = append(rows, row)
	}
	return rows
}

func rampSLO(t *testing.T) SLO {
	t.Helper()
	slo, err := ParseSLO("p99<50ms,errors<0.5%")
	if err != nil {
		t.Fatal(err)
	}
	return slo
}

func eqf(got *float64, want float64) bool { return got != nil && *got == want }

// The data element carries every series of the Result, point for point.
func TestHTMLDataMatchesResult(t *testing.T) {
	r, c := ramp(), stepResult(t0, 100, 1000, time.Millisecond, 0)
	opts := HTMLOptions{Title: "ramp vs constant", SLO: rampSLO(t), Settings: []string{"rate 100:200:+100"}, Generated: t0}
	p := renderHTML(t, opts, Run{Name: "ramp", Result: r}, Run{Name: "constant", Result: c})
	d := p.data
	if len(d.Runs) != 2 || d.Runs[0].Name != "ramp" || d.Runs[1].Name != "constant" {
		t.Fatalf("runs %+v", d.Runs)
	}
	if len(d.Seconds) != len(r.Series) {
		t.Fatalf("%d seconds, want %d", len(d.Seconds), len(r.Series))
	}
	rs := d.Runs[0].Series
	for i, pt := range r.Series {
		ok := eqf(rs.RPS[i], pt.Rate()) && eqf(rs.Errors[i], float64(pt.Errors)) && eqf(rs.NotSent[i], float64(pt.NotSent)) &&
			eqf(rs.P50MS[i], ms(pt.P50)) && eqf(rs.P90MS[i], ms(pt.P90)) && eqf(rs.P99MS[i], ms(pt.P99)) && eqf(rs.MaxMS[i], ms(pt.Max))
		if !ok {
			t.Fatalf("second %d of the ramp does not match its point %+v", i, pt)
		}
		want := 100.0 // the first step's rate, then the second's
		if i >= 10 {
			want = 200
		}
		if !eqf(rs.Offered[i], want) {
			t.Errorf("offered rate at %ds: %v, want %v", i, rs.Offered[i], want)
		}
	}
	// The constant run's series is shorter: null past its end.
	cs := d.Runs[1].Series
	if len(cs.P99MS) != len(r.Series) || cs.P99MS[len(c.Series)] != nil || cs.RPS[len(c.Series)] != nil || !eqf(cs.P99MS[0], ms(c.Series[0].P99)) {
		t.Errorf("constant run's padded series: %v", cs.P99MS)
	}
	if !eqf(cs.Offered[0], 100) {
		t.Errorf("constant run's offered rate %v", cs.Offered[0])
	}

	sum := d.Runs[0].Summary
	if sum.Calls != r.Calls || sum.Errors != r.Errors || sum.NotSent != r.NotSent || sum.P99MS != ms(r.Corrected.Percentile(99)) ||
		sum.P999MS != ms(r.Corrected.Percentile(99.9)) || sum.ServiceP99MS != ms(r.Service.Percentile(99)) ||
		sum.CPUPerCallUS != 20 || sum.Codes["UNAVAILABLE"] != 15 || sum.Load != "open loop, 100 to 200/s in 2 steps of 10s" {
		t.Errorf("summary %+v does not match the result", sum)
	}
	if got := sum.StepStartsSec; len(got) != 2 || got[0] != 0 || got[1] != 10 {
		t.Errorf("step starts %v", got)
	}

	steps := d.Runs[0].Steps
	if len(steps) != 2 || *steps[0].Pass != true || *steps[1].Pass != false {
		t.Fatalf("steps %+v: want the first to pass and the second to fail", steps)
	}
	for k, s := range steps {
		st := r.Steps[k]
		if s.OfferedRPS != st.Offered || s.P99MS != ms(st.Corrected.Percentile(99)) || s.Errors != st.Errors || s.NotSent != st.NotSent {
			t.Errorf("step %d: %+v", k, s)
		}
	}
	// Steps of whole seconds: the throughput is exact, calls that ended per second.
	if steps[0].ThroughputRPS != 100 || steps[1].ThroughputRPS != 150 {
		t.Errorf("step throughputs %v and %v, want 100 and 150", steps[0].ThroughputRPS, steps[1].ThroughputRPS)
	}
	if cp := d.Runs[0].Capacity; cp == nil || cp.RPS != 100 || cp.Step != 0 || !cp.OK {
		t.Errorf("capacity %+v, want 100/s at step 0", cp)
	}
	if k := d.Runs[0].Knee; k == nil || k.Step != 1 || k.Rate != 200 {
		t.Errorf("knee %+v, want step 1 at 200/s", k)
	}
	if d.Runs[1].Capacity != nil || d.Runs[1].Knee != nil || len(d.Runs[1].Steps) != 0 {
		t.Error("a constant run has no steps, capacity or knee")
	}
	if len(d.Rates) != 2 || d.Rates[1] != 200 {
		t.Errorf("step rates %v", d.Rates)
	}
	if d.SLOLimit != 50 || d.SLOPct != 99 || d.SLO != "p99<50ms,errors<0.5%" {
		t.Errorf("slo %q, limit %v at p%v", d.SLO, d.SLOLimit, d.SLOPct)
	}
	if v := d.Runs[0].Verdicts; len(v) != 2 || !v[0].Pass || v[1].Pass || v[1].Measured != "0.600%" || !d.Runs[1].Verdicts[1].Pass {
		t.Errorf("verdicts %+v %+v", d.Runs[0].Verdicts, d.Runs[1].Verdicts)
	}
}

// With steps shorter than the series' seconds, a second's offered rate is
// the mean of the steps' rates over it, and throughput by step is shared
// out in proportion.
func TestHTMLShortSteps(t *testing.T) {
	step := 750 * time.Millisecond
	r := &load.Result{Start: t0, Duration: 3 * step, Corrected: load.NewHistogram()}
	for i, rate := range []float64{200, 400, 600} {
		r.Steps = append(r.Steps, &load.Result{Start: t0.Add(time.Duration(i) * step), Duration: step, Offered: rate, Corrected: load.NewHistogram()})
	}
	for i, calls := range []int64{250, 500, 150} {
		r.Series = append(r.Series, load.Point{At: time.Duration(i) * time.Second, Length: time.Second, Calls: calls})
	}
	d := renderHTML(t, HTMLOptions{}, Run{Name: "short", Result: r}).data.Runs[0]
	for i, want := range []float64{250, 500, 600} {
		if !eqf(d.Series.Offered[i], want) {
			t.Errorf("offered rate of second %d: %v, want %v", i, *d.Series.Offered[i], want)
		}
	}
	// Step 2 (0.75 s to 1.5 s) saw a quarter of second 0's 250 calls and half of second 1's 500.
	if got, want := d.Steps[1].ThroughputRPS, (250.0/4+500.0/2)/0.75; got != want {
		t.Errorf("step 2's throughput %v, want %v", got, want)
	}
}

// The spectrum follows the histogram up to 1 in (number of calls), ends
// at the maximum, and is null beyond.
func TestHTMLSpectrum(t *testing.T) {
	r := ramp()
	p := renderHTML(t, HTMLOptions{}, Run{Name: "ramp", Result: r})
	spec, qs, xs := p.data.Runs[0].Spectrum, p.data.Quantiles, p.data.Spectrum
	if len(spec) != len(qs) || len(xs) != len(qs) {
		t.Fatalf("%d spectrum points for %d quantiles", len(spec), len(qs))
	}
	n, last := float64(r.Corrected.Count()), -1
	for i, v := range spec {
		switch {
		case xs[i] <= n:
			if !eqf(v, ms(r.Corrected.Percentile(100*qs[i]))) {
				t.Fatalf("point %d (q %v): %v", i, qs[i], v)
			}
			if i > 0 && *v < *spec[i-1] {
				t.Fatalf("spectrum decreases at %d", i)
			}
		case last < 0:
			last = i
			if !eqf(v, ms(r.Corrected.Max())) {
				t.Errorf("first point past the calls: %v, want the max %v", v, ms(r.Corrected.Max()))
			}
		case v != nil:
			t.Fatalf("point %d past the calls is %v, want null", i, *v)
		}
	}
	if last < 0 || xs[last-1] > n || xs[last] <= n {
		t.Errorf("the spectrum ends at point %d of x %v for %v calls", last, xs[max(last, 0)], n)
	}
	if qs[0] != 0 || xs[0] != 1 || xs[4] != 2 || qs[4] != 0.5 {
		t.Errorf("spectrum axis starts %v %v", qs[:5], xs[:5])
	}
}

// The data element is golden: the page's script reads nothing else.
func TestHTMLDataGolden(t *testing.T) {
	slo, _ := ParseSLO("p99<50ms")
	d := newHTMLData(HTMLOptions{Title: "ramp", SLO: slo, Generated: t0}, []Run{{Name: "ramp", Result: ramp()}})
	b, err := json.MarshalIndent(d, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "ramp.html.json", append(b, '\n'))
}

// The page is golden too, with the inlined assets replaced by markers.
func TestHTMLPageGolden(t *testing.T) {
	markers := pageAssets{scripts: []string{"/* uPlot */", "/* report.js */"}, css: []string{"/* uPlot.css */", "/* report.css */"}}
	opts := HTMLOptions{Title: "ramp vs constant", SLO: rampSLO(t), Settings: []string{"rate 100:200:+100, steps of 10s"}, Generated: t0}
	var b bytes.Buffer
	runs := []Run{{Name: "ramp", Result: ramp()}, {Name: "constant", Result: stepResult(t0, 100, 1000, time.Millisecond, 0)}}
	if err := writeHTML(&b, opts, runs, markers); err != nil {
		t.Fatal(err)
	}
	golden(t, "ramp.html", b.Bytes())
}

// The tables are in the page itself, readable without the script.
func TestHTMLTables(t *testing.T) {
	r, c := ramp(), stepResult(t0, 100, 1000, time.Millisecond, 0)
	p := renderHTML(t, HTMLOptions{SLO: rampSLO(t), Generated: t0}, Run{Name: "ramp", Result: r}, Run{Name: "constant", Result: c})

	summary := cells(byID(p.doc, "summary"))
	want := []string{"ramp", "2,500", "124", "15 (0.600%)", fmtLatency(ms(r.Corrected.Percentile(50))), fmtLatency(ms(r.Corrected.Percentile(90))),
		fmtLatency(ms(r.Corrected.Percentile(99))), fmtLatency(ms(r.Corrected.Percentile(99.9))), fmtLatency(ms(r.Corrected.Max())), "20 µs"}
	if strings.Join(summary[0], "|") != strings.Join(want, "|") || len(summary) != 2 {
		t.Errorf("summary rows %q, want the first %q", summary, want)
	}

	slo := byID(p.doc, "slo")
	rows := cells(slo)
	if len(rows) != 2 || rows[0][3] != "100/s" || rows[0][4] != "200/s" || rows[1][3] != "-" || rows[0][2] != "✗ 0.600%" {
		t.Errorf("SLO rows %q: want capacity 100/s and knee 200/s for the ramp", rows)
	}
	var classes []string
	for _, td := range elements(elements(slo, "tbody")[0], "td") {
		classes = append(classes, attr(td, "class"))
	}
	if got := strings.Join(classes, ","); got != "name,pass,fail,,,name,pass,pass,," {
		t.Errorf("SLO cell classes %q", got)
	}

	steps := cells(byID(p.doc, "ramp"))
	if len(steps) != 2 || len(steps[0]) != 4 || steps[0][0] != "100" || steps[1][0] != "200" || steps[1][3] != "15 (1.00%)" {
		t.Errorf("step rows %q", steps)
	}
	var stepClasses []string
	for _, td := range elements(elements(byID(p.doc, "ramp"), "tbody")[0], "td")[1:4] {
		stepClasses = append(stepClasses, attr(td, "class"))
	}
	if got := strings.Join(stepClasses, ","); got != "group cap,cap,cap" {
		t.Errorf("first step's classes %q: want the capacity marked", got)
	}
	if !strings.Contains(attr(elements(elements(byID(p.doc, "ramp"), "tbody")[0], "tr")[1].FirstChild.NextSibling.NextSibling, "class"), "knee") {
		t.Error("the knee's p99 is not marked")
	}

	details := cells(byID(p.doc, "details"))
	if details[0][1] != "open loop, 100 to 200/s in 2 steps of 10s" || details[0][3] != "500" || details[1][1] != "open loop at 100/s" ||
		details[0][9] != "OK 2,485, UNAVAILABLE 15" {
		t.Errorf("details %q", details)
	}
	for _, id := range []string{"plot-load", "plot-load-rate", "plot-time-0", "plot-time-1", "plot-rate", "plot-spectrum"} {
		if byID(p.doc, id) == nil {
			t.Errorf("no element %q for a plot", id)
		}
	}
}

// A closed-loop run without SLO has no ramp, SLO or time sections to show
// but the summary and spectrum; an empty result is still a run.
func TestHTMLSparse(t *testing.T) {
	closed := stepResult(t0, 0, 1000, time.Millisecond, 0)
	closed.Series = nil
	empty := &load.Result{Corrected: load.NewHistogram()}
	p := renderHTML(t, HTMLOptions{}, Run{Name: "closed", Result: closed}, Run{Name: "empty", Result: empty})
	for _, id := range []string{"slo", "ramp", "time", "plot-load"} {
		if byID(p.doc, id) != nil {
			t.Errorf("element %q present without data for it", id)
		}
	}
	if byID(p.doc, "plot-spectrum") == nil {
		t.Error("no spectrum")
	}
	rows := cells(byID(p.doc, "summary"))
	if len(rows) != 2 || rows[1][4] != "-" || rows[1][1] != "0" {
		t.Errorf("summary %q", rows)
	}
	if d := cells(byID(p.doc, "details")); d[0][1] != "closed loop" {
		t.Errorf("details %q", d)
	}
	if s := p.data.Runs[1].Spectrum; s[0] != nil {
		t.Errorf("an empty run's spectrum starts with %v", *s[0])
	}
	if p.raw["title"] != "rpckit bench" || !strings.Contains(p.page, "<title>rpckit bench</title>") {
		t.Error("the default title is missing")
	}
}

// Names, titles, settings and error texts are data, never markup.
func TestHTMLEscaping(t *testing.T) {
	evil := `</script><script>alert(1)</script><!-- <img id=x>&amp; ` + "\u2028'\""
	res := ramp()
	res.Messages = map[string]int64{evil: 3}
	p := renderHTML(t, HTMLOptions{Title: evil, Settings: []string{evil}, SLO: rampSLO(t)}, Run{Name: evil, Result: res})
	for _, bad := range []string{"<script>alert", "<img", "<!--"} {
		if i := strings.Index(p.page, bad); i >= 0 {
			t.Errorf("%q reached the page as markup: %q", bad, p.page[max(i-40, 0):i+20])
		}
	}
	if data := text(byID(p.doc, "rpckit-data")); strings.ContainsAny(data, "<>&\u2028") {
		t.Errorf("the data element holds unescaped text: %q", data[:100])
	}
	if p.raw["title"] != evil || p.data.Runs[0].Name != evil || p.data.Settings[0] != evil || p.data.Runs[0].Summary.Messages[evil] != 3 {
		t.Error("the data does not carry the texts as given")
	}
	if got := text(elements(p.doc, "title")[0]); got != evil {
		t.Errorf("title %q, want %q", got, evil)
	}
	if got := text(elements(p.doc, "h1")[0]); got != evil {
		t.Errorf("heading %q", got)
	}
	if got := cells(byID(p.doc, "summary"))[0][0]; got != evil {
		t.Errorf("summary name %q", got)
	}
	if scripts := elements(p.doc, "script"); len(scripts) != 3 {
		t.Errorf("%d script elements, want 3 (data, uPlot, report)", len(scripts))
	}
}

// The report loads nothing from anywhere, and its policy says so: only
// its own inline scripts, by hash, may run.
func TestHTMLSelfContained(t *testing.T) {
	p := renderHTML(t, HTMLOptions{SLO: rampSLO(t)}, Run{Name: "a", Result: ramp()})
	if m := regexp.MustCompile(`(?i)(src|href|action)\s*=`).FindString(p.page); m != "" {
		t.Errorf("the page refers to a resource: %q", m)
	}
	// The only URL is uPlot's banner comment.
	urls := regexp.MustCompile(`(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}/`).FindAllStringIndex(p.page, -1)
	for _, u := range urls {
		if !strings.HasPrefix(p.page[max(u[0]-4, 0):], "/*! https://github.com/leeoniya/uPlot") {
			t.Errorf("a URL in the page: %q", p.page[u[0]:u[1]])
		}
	}
	var csp string
	for _, m := range elements(p.doc, "meta") {
		if attr(m, "http-equiv") == "Content-Security-Policy" {
			csp = attr(m, "content")
		}
	}
	if !strings.HasPrefix(csp, "default-src 'none'; script-src 'sha256-") {
		t.Fatalf("policy %q", csp)
	}
	var code int
	for _, s := range elements(p.doc, "script") {
		if attr(s, "type") == "application/json" {
			continue
		}
		code++
		sum := sha256.Sum256([]byte(text(s)))
		if h := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"; !strings.Contains(csp, h) {
			t.Errorf("script %d (%d bytes) is not allowed by its hash %s", code, len(text(s)), h)
		}
	}
	if code != 2 || !strings.Contains(p.page, "uPlot") || !strings.Contains(p.page, "rpckit-data") {
		t.Errorf("%d scripts inlined, want uPlot and the report's", code)
	}
}

func TestHTMLErrors(t *testing.T) {
	var b bytes.Buffer
	if err := WriteHTML(&b, HTMLOptions{}); err == nil || !strings.Contains(err.Error(), "report: html: no runs") {
		t.Errorf("no runs: %v", err)
	}
	if err := WriteHTML(&b, HTMLOptions{}, Run{Name: "a", Result: ramp()}, Run{Name: "x"}); err == nil || !strings.Contains(err.Error(), `run 2 ("x")`) {
		t.Errorf("a run without result: %v", err)
	}
	if b.Len() != 0 {
		t.Error("a failed report wrote something")
	}
}

func TestHTMLFormats(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{fmtLatency(0.8426), "0.84 ms"}, {fmtLatency(12.34), "12.3 ms"}, {fmtLatency(215.4), "215 ms"}, {fmtLatency(4354), "4.35 s"},
		{fmtInt(0), "0"}, {fmtInt(999), "999"}, {fmtInt(1000), "1,000"}, {fmtInt(-1234567), "-1,234,567"},
		{fmtRate(12.34), "12.3"}, {fmtRate(1299.6), "1,300"}, {fmtPercent(0.0171), "0.017%"}, {fmtPercent(12.838), "12.8%"},
		{fmtPercent(0.0001), "< 0.001%"}, {fmtErrors(2, 0.00017), "2 (0.017%)"}, {fmtCPU(0), "-"}, {fmtCodes(map[string]int64{"b": 1, "a": 1, "OK": 5}), "OK 5, a 1, b 1"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
