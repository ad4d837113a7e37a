package report

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/rpckit/rpckit/load"
)

// FlowsJSONSchema names the JSON report of a run of several flows.
const FlowsJSONSchema = "rpckit.bench.flows/v1"

// WriteFlowsText writes the report of a run of several flows (runs, each
// with its own SLO) and their total: first a table of the flows, errors
// and verdicts first, then each flow's full report and verdicts, then the
// total's report.
func WriteFlowsText(w io.Writer, runs []Run, total *load.Result, opts TextOptions) error {
	bw := bufio.NewWriter(w)
	writeFlowTable(bw, runs, total)
	for _, r := range runs {
		fmt.Fprintf(bw, "\n== flow %s ==\n", r.Name)
		if err := WriteText(bw, r.Result, opts); err != nil {
			return err
		}
		if r.SLO != nil {
			if err := WriteVerdicts(bw, r.Result, r.SLO); err != nil {
				return err
			}
		}
	}
	fmt.Fprintf(bw, "\n== all flows ==\n")
	if err := WriteText(bw, total, opts); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("report: write text: %w", err)
	}
	return nil
}

// writeFlowTable is one line per flow and one for the total: calls,
// errors, rate, latency and the SLO's verdict.
func writeFlowTable(w io.Writer, runs []Run, total *load.Result) {
	width := len("all flows")
	for _, r := range runs {
		width = max(width, len(r.Name))
	}
	fmt.Fprintf(w, "Flows:\n  %-*s %10s %10s %8s %10s %10s %10s  %s\n", width, "flow", "calls", "errors", "error%", "rps", "p50", "p99", "slo")
	for _, r := range runs {
		writeFlowLine(w, width, r.Name, r.Result, r.SLO)
	}
	writeFlowLine(w, width, "all flows", total, nil)
}

func writeFlowLine(w io.Writer, width int, name string, r *load.Result, slo SLO) {
	p50, p99 := "-", "-"
	if r.Corrected.Count() > 0 {
		p50, p99 = fmtUnit(r.Corrected.Percentile(50)), fmtUnit(r.Corrected.Percentile(99))
	}
	fmt.Fprintf(w, "  %-*s %10d %10d %7.2f%% %10.1f %10s %10s  %s\n",
		width, name, r.Calls, r.Errors, 100*r.ErrorRate(), r.Rate(), p50, p99, flowVerdict(r, slo))
}

// flowVerdict is "pass", "FAIL (the clauses missed)", or "-" without an SLO.
func flowVerdict(r *load.Result, slo SLO) string {
	if slo == nil {
		return "-"
	}
	var failed []string
	for _, v := range slo.Check(r) {
		if !v.Pass {
			failed = append(failed, v.Clause.Text)
		}
	}
	if len(failed) == 0 {
		return "pass"
	}
	return "FAIL (" + strings.Join(failed, ", ") + ")"
}

type jsonFlows struct {
	Schema string      `json:"schema"`
	Flows  []jsonFlow  `json:"flows"`
	Total  *jsonResult `json:"total"`
}

type jsonFlow struct {
	Name string `json:"name"`
	*jsonResult
}

// WriteFlows writes a run of several flows as one indented JSON object,
// schema FlowsJSONSchema: flows, a list of result objects as Write writes
// them, each with its name and its own SLO's verdicts, and total, the
// flows merged.
func (o JSONOptions) WriteFlows(w io.Writer, runs []Run, total *load.Result) error {
	out := jsonFlows{Schema: FlowsJSONSchema}
	for _, r := range runs {
		jr, err := resultJSON(r.Result, r.SLO)
		if err != nil {
			return err
		}
		out.Flows = append(out.Flows, jsonFlow{Name: r.Name, jsonResult: jr})
	}
	var err error
	if out.Total, err = resultJSON(total, o.SLO); err != nil {
		return err
	}
	return encodeJSON(w, out)
}

// resultJSON is r's JSON object, with knee and capacity for a ramp.
func resultJSON(r *load.Result, slo SLO) (*jsonResult, error) {
	jr, err := toJSON(r, slo)
	if err != nil {
		return nil, err
	}
	if len(r.Steps) > 0 {
		jr.Knee = kneeJSON(r)
		if slo != nil {
			jr.Capacity = capacityJSON(r, slo)
		}
	}
	return jr, nil
}

func encodeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // objectives such as p99<200ms read as written
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("report: write json: %w", err)
	}
	return nil
}

// WriteFlows writes the summary CSV of a run of several flows: the row
// "total", then a row per flow named after it (with its own SLO's verdict),
// each followed by its ramp's steps, "NAME step 1", "NAME step 2"...
func (o CSVOptions) WriteFlows(w io.Writer, runs []Run, total *load.Result) error {
	cw := csv.NewWriter(w)
	_ = cw.Write(summaryHeader())
	_ = cw.Write(append(summaryRow("total", total, o.SLO), "", ""))
	for _, r := range runs {
		_ = cw.Write(append(summaryRow(r.Name, r.Result, r.SLO), rampColumns(r.Result, r.SLO)...))
		for i, s := range r.Result.Steps {
			_ = cw.Write(append(summaryRow(fmt.Sprintf("%s step %d", r.Name, i+1), s, r.SLO), "", ""))
		}
	}
	return flushCSV(cw)
}
