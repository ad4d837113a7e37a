package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rpckit/rpckit/internal/cli"
	"github.com/rpckit/rpckit/load/report"
	"golang.org/x/net/html"
)

// TestDemo runs the whole tour briefly: the calls, four load tests as
// child processes, the table, the results and the report; afterwards the
// ports it opened are closed.
func TestDemo(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out, errb bytes.Buffer
	code := cli.Main(ctx, []string{"demo", "--duration", "8s", "--rate", "20:60:+20", "--candidates", "100", "--catalogue", "5000", "--out", dir},
		cli.Stdio{In: strings.NewReader(""), Out: &out, Err: &errb})
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errb.String())
	}
	text := out.String()
	t.Log(text)
	m := regexp.MustCompile(`ranking service on (\S+) \(gRPC\) and (\S+) \(Thrift\), gateway on http://(\S+) `).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no addresses in the output")
	}
	for _, addr := range m[1:] {
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			t.Errorf("%s still accepts connections after demo returned", addr)
		}
	}
	for _, want := range []string{"unary          Rank", "server stream  RankStream", "client stream  Feedback",
		"bidi stream    Autoplay", "Thrift         Rank", "binary, framed: 1000 candidates -> top {\"item_id\":",
		"POST /v1/rank", "HTTP/1.1 200"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q among the calls", want)
		}
	}
	// Client CPU per call is "-" at a step shorter than the series' second;
	// the server's, read from scrapes at the step's ends, is not.
	row := regexp.MustCompile(`(?m)^\s*(gRPC \(HTTP/2, one connection\)|Thrift \(binary, framed\)|HTTP/1.1 JSON, keep-alive|HTTP/1.1 JSON, new connections)` +
		`\s+([\d.]+ms\s+){5}(\d+)\s+(\d+)\s+(\d+µs|-)\s+(\d+µs)\s+(>= 60/s \(all\)|\d+/s|< 20/s)\s*$`)
	if rows := row.FindAllStringSubmatch(text, -1); len(rows) != 4 {
		t.Errorf("want 4 table rows, got %d", len(rows))
	}
	errs := regexp.MustCompile(`(?m)^\s+(gRPC \(HTTP/2, one connection\)|Thrift \(binary, framed\)|HTTP/1.1 JSON, keep-alive|HTTP/1.1 JSON, new connections)\s+\d+ calls, none failed$`)
	if !strings.Contains(text, "Errors over all steps:") || len(errs.FindAllString(text, -1)) != 4 {
		t.Errorf("want the calls and errors of the 4 transports")
	}
	if n := strings.Count(text, "rpckit bench --rate 20:60:+20 --step "); n != 4 {
		t.Errorf("%d bench commands with the demo's ramp, want 4", n)
	}
	checkDemoHTML(t, filepath.Join(dir, "report.html"), text)
	for _, name := range []string{"grpc.json", "thrift.json", "http-keepalive.json", "http-close.json"} {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		res, err := report.ReadJSON(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(res.Steps) != 3 || res.Calls == 0 || res.CPU <= 0 || res.Codes["OK"] != res.Calls {
			t.Errorf("%s: %d steps, %d calls, cpu %v, codes %v", name, len(res.Steps), res.Calls, res.CPU, res.Codes)
		}
		if len(res.Server) != 1 || !res.Server[0].HasCPU || res.Server[0].Failed != 0 {
			t.Errorf("%s: the server's metrics: %+v, want one endpoint scraped without failures", name, res.Server)
		}
	}
}

// checkDemoHTML parses the report: its data has the three runs, each with
// its ramp steps and time series.
func checkDemoHTML(t *testing.T, path, stdout string) {
	t.Helper()
	if !strings.Contains(stdout, "Report:  "+path) {
		t.Errorf("the report's path %s is not printed", path)
	}
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	raw := findScript(doc, "rpckit-data")
	var data struct {
		SLO  string `json:"slo"`
		Runs []struct {
			Name  string `json:"name"`
			Steps []struct {
				OfferedRPS float64 `json:"offered_rps"`
			} `json:"steps"`
			Series struct {
				P99 []*float64 `json:"p99_ms"`
			} `json:"series"`
			Spec []float64          `json:"spectrum_ms"`
			Cap  *struct{ OK bool } `json:"capacity"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(raw), &data); err != nil {
		t.Fatalf("report data: %v", err)
	}
	if len(data.Runs) != 4 || data.SLO != "p99<200ms,errors<0.1%" {
		t.Fatalf("report has %d runs, SLO %q", len(data.Runs), data.SLO)
	}
	for _, r := range data.Runs {
		if len(r.Steps) != 3 || r.Steps[2].OfferedRPS != 60 || len(r.Series.P99) == 0 || len(r.Spec) == 0 || r.Cap == nil {
			t.Errorf("run %q: %d steps, %d series points, %d spectrum points, capacity %v",
				r.Name, len(r.Steps), len(r.Series.P99), len(r.Spec), r.Cap)
		}
	}
}

func findScript(n *html.Node, id string) string {
	if n.Type == html.ElementNode && n.Data == "script" {
		for _, a := range n.Attr {
			if a.Key == "id" && a.Val == id && n.FirstChild != nil {
				return n.FirstChild.Data
			}
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if s := findScript(c, id); s != "" {
			return s
		}
	}
	return ""
}
