package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/rpckit/rpckit/load"
)

// flowRuns are two flows, one fast and one slow with errors, each with an
// SLO only the fast one meets, and their merge.
func flowRuns(t *testing.T) ([]Run, *load.Result) {
	slo, err := ParseSLO("p99<10ms,errors<1%")
	if err != nil {
		t.Fatal(err)
	}
	fast := stepResult(t0, 300, 3000, time.Millisecond, 0)
	slow := stepResult(t0, 100, 1000, 20*time.Millisecond, 10)
	runs := []Run{{Name: "fast", Result: fast, SLO: slo}, {Name: "slow", Result: slow, SLO: slo}}
	return runs, load.Merge(fast, slow)
}

func TestFlowsText(t *testing.T) {
	runs, total := flowRuns(t)
	var buf bytes.Buffer
	if err := WriteFlowsText(&buf, runs, total, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	lines := strings.Split(out, "\n")
	if lines[0] != "Flows:" || !strings.Contains(lines[1], "errors") {
		t.Fatalf("the report does not open with the flows' table: %q", lines[:2])
	}
	for i, want := range []struct{ name, calls, errors, verdict string }{
		{"fast", "3000", "0", "pass"},
		{"slow", "1000", "100", "FAIL (p99<10ms, errors<1%)"},
		{"all flows", "4000", "100", "-"},
	} {
		f := lines[2+i]
		if !strings.HasPrefix(strings.TrimSpace(f), want.name) || !strings.Contains(f, " "+want.calls+" ") ||
			!strings.Contains(f, " "+want.errors+" ") || !strings.HasSuffix(f, "  "+want.verdict) {
			t.Errorf("flow line %q, want %+v", f, want)
		}
	}
	for _, want := range []string{"\n== flow fast ==\n", "\n== flow slow ==\n", "\n== all flows ==\n", "p99<10ms: ", " FAIL"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in the report", want)
		}
	}
	if i, j := strings.Index(out, "== flow slow =="), strings.Index(out, "errors<1%: 10.000% FAIL"); j < i {
		t.Errorf("the slow flow's verdict is not in its part of the report")
	}
}

func TestFlowsJSON(t *testing.T) {
	runs, total := flowRuns(t)
	var buf bytes.Buffer
	if err := (JSONOptions{}).WriteFlows(&buf, runs, total); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Schema string `json:"schema"`
		Flows  []struct {
			Name  string `json:"name"`
			Calls int64  `json:"calls"`
			SLO   struct {
				Met bool `json:"met"`
			} `json:"slo"`
		} `json:"flows"`
		Total struct {
			Calls  int64           `json:"calls"`
			Errors int64           `json:"errors"`
			SLO    json.RawMessage `json:"slo"`
		} `json:"total"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	back, err := ReadJSON(bytes.NewReader(buf.Bytes()))
	if err != nil || back.Calls != total.Calls || back.Corrected.Count() != total.Corrected.Count() || back.Errors != total.Errors {
		t.Errorf("ReadJSON of a flows report: %v, %v; want the total", back, err)
	}
	if got.Schema != FlowsJSONSchema || len(got.Flows) != 2 || got.Flows[0].Name != "fast" || got.Flows[0].Calls != 3000 ||
		!got.Flows[0].SLO.Met || got.Flows[1].SLO.Met || got.Total.Calls != 4000 || got.Total.Errors != 100 || got.Total.SLO != nil {
		t.Errorf("flows JSON %+v", got)
	}
}

func TestFlowsCSV(t *testing.T) {
	runs, total := flowRuns(t)
	var buf bytes.Buffer
	if err := (CSVOptions{}).WriteFlows(&buf, runs, total); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	slo := len(summaryHeader()) - 3
	if len(rows) != 4 || rows[1][0] != "total" || rows[2][0] != "fast" || rows[3][0] != "slow" ||
		rows[2][3] != "3000" || rows[3][4] != "100" || rows[2][slo] != "pass" || rows[3][slo] != "fail" || rows[1][slo] != "" {
		t.Errorf("flows CSV %q", rows)
	}
}

// Each flow's verdicts in the HTML report are against its own SLO; a run
// without one has none.
func TestHTMLRunSLO(t *testing.T) {
	runs, total := flowRuns(t)
	other, err := ParseSLO("p50<1s")
	if err != nil {
		t.Fatal(err)
	}
	runs[1].SLO = other
	p := renderHTML(t, HTMLOptions{Generated: t0}, append(runs, Run{Name: "all flows", Result: total})...)
	rows := cells(byID(p.doc, "slo"))
	if len(rows) != 3 {
		t.Fatalf("SLO rows %q", rows)
	}
	if rows[0][1] == "-" || rows[0][3] != "-" || rows[1][1] != "-" || !strings.HasPrefix(rows[1][3], "✓") || rows[2][1] != "-" {
		t.Errorf("SLO rows %q: want each run's own clauses filled", rows)
	}
	if len(p.data.Runs[0].Verdicts) != 2 || len(p.data.Runs[1].Verdicts) != 1 || len(p.data.Runs[2].Verdicts) != 0 {
		t.Errorf("verdicts in the data: %d %d %d", len(p.data.Runs[0].Verdicts), len(p.data.Runs[1].Verdicts), len(p.data.Runs[2].Verdicts))
	}
}
