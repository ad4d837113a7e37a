package report

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/rpckit/rpckit/load"
)

// The tables of the HTML report, rendered into the page by the template
// (so they read without JavaScript), from the same htmlData the plots use.

// A cell is a table cell's text and CSS class.
type cell struct {
	Text, Class string
}

type runHead struct {
	Name, Class string // Class is the run's colour, c0..c5
}

type htmlSummaryRow struct {
	runHead
	Calls, RPS, Errors, P50, P90, P99, P999, Max, CPU string
}

type verdictTable struct {
	Clauses []string
	Rows    []verdictRow
	Ramp    bool // capacity and knee columns
}

type verdictRow struct {
	runHead
	Cells      []cell
	Capacity   string
	Knee       string // its offered rate
	KneeReason string
}

type stepTable struct {
	Runs []runHead
	Rows []stepRow
}

type stepRow struct {
	Offered string
	Cells   []cell // p50, p99 and errors of each run
}

type messageRow struct {
	runHead
	Count, Message string
}

type detailRow struct {
	runHead
	Load, Duration, NotSent, CutOff, MaxLag, MeanLag, ServiceP50, ServiceP99, Codes string
}

// colours is the number of run colours the style sheet defines.
const colours = 6

func headOf(d *htmlData, i int) runHead {
	return runHead{Name: d.Runs[i].Name, Class: "c" + strconv.Itoa(i%colours)}
}

func summaryRows(d *htmlData) []htmlSummaryRow {
	rows := make([]htmlSummaryRow, len(d.Runs))
	for i, r := range d.Runs {
		s := r.Summary
		rows[i] = htmlSummaryRow{
			runHead: headOf(d, i), Calls: fmtInt(s.Calls), RPS: fmtRate(s.RPS), Errors: fmtErrors(s.Errors, s.ErrorRate),
			P50: fmtLatency(s.P50MS), P90: fmtLatency(s.P90MS), P99: fmtLatency(s.P99MS),
			P999: fmtLatency(s.P999MS), Max: fmtLatency(s.MaxMS), CPU: fmtCPU(s.CPUPerCallUS),
		}
		if s.Calls == 0 {
			rows[i].P50, rows[i].P90, rows[i].P99, rows[i].P999, rows[i].Max = "-", "-", "-", "-", "-"
		}
	}
	return rows
}

func verdictsOf(d *htmlData, runs []Run, slo SLO) *verdictTable {
	clauses, col := sloClauses(runs, slo)
	if len(clauses) == 0 {
		return nil
	}
	t := &verdictTable{Ramp: len(d.Rates) > 0, Clauses: clauses}
	for i, r := range d.Runs {
		row := verdictRow{runHead: headOf(d, i), Capacity: capacityText(r), Knee: "-"}
		row.Cells = make([]cell, len(clauses))
		for k := range row.Cells {
			row.Cells[k] = cell{"-", ""}
		}
		for _, v := range runs[i].sloOr(slo).Check(runs[i].Result) {
			row.Cells[col[v.Clause.Text]] = verdictCell(v)
		}
		if r.Knee != nil {
			row.Knee, row.KneeReason = fmtRate(r.Knee.Rate)+"/s", r.Knee.Reason
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// sloClauses are the clauses of every run's SLO, each once, in order, and
// the column of each.
func sloClauses(runs []Run, slo SLO) ([]string, map[string]int) {
	var clauses []string
	col := map[string]int{}
	for _, r := range runs {
		for _, c := range r.sloOr(slo) {
			if _, ok := col[c.Text]; !ok {
				col[c.Text] = len(clauses)
				clauses = append(clauses, c.Text)
			}
		}
	}
	return clauses, col
}

func verdictCell(v Verdict) cell {
	if v.Pass {
		return cell{"✓ " + fmtMeasured(v.Clause, v.Measured), "pass"}
	}
	return cell{"✗ " + fmtMeasured(v.Clause, v.Measured), "fail"}
}

// fmtMeasured formats a clause's measured value as the report's tables do.
func fmtMeasured(c Clause, v float64) string {
	switch c.Metric {
	case "errors":
		if c.Percent {
			return fmtPercent(v)
		}
		return fmtInt(int64(v))
	case "rps":
		return fmtRate(v) + "/s"
	}
	return fmtLatency(v)
}

// capacityText is a run's capacity: the highest offered rate within the
// SLO, "≥" when every step was, and "none" when the first step failed.
func capacityText(r htmlRun) string {
	c := r.Capacity
	switch {
	case c == nil:
		return "-"
	case !c.OK:
		return "none"
	case c.Step == len(r.Steps)-1:
		return "≥ " + fmtRate(c.RPS) + "/s"
	}
	return fmtRate(c.RPS) + "/s"
}

// stepsOf is the table of the runs' ramp steps, one row per offered
// rate, the runs without steps left out.
func stepsOf(d *htmlData) *stepTable {
	if len(d.Rates) == 0 {
		return nil
	}
	t := &stepTable{}
	var ramps []htmlRun
	for i, r := range d.Runs {
		if len(r.Steps) > 0 {
			t.Runs, ramps = append(t.Runs, headOf(d, i)), append(ramps, r)
		}
	}
	for _, rate := range d.Rates {
		row := stepRow{Offered: fmtRate(rate)}
		for _, r := range ramps {
			row.Cells = append(row.Cells, stepCells(r, rate)...)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// stepCells are the p50, p99 and errors of r's step at rate,
// classed "fail" when it missed the SLO, "cap" at the capacity and "knee"
// at the knee; the first starts a "group" (a run's columns).
func stepCells(r htmlRun, rate float64) []cell {
	for k, s := range r.Steps {
		if s.OfferedRPS == rate {
			cls := stepClass(r, k)
			cells := []cell{{fmtLatency(s.P50MS), cls}, {fmtLatency(s.P99MS), cls}, {fmtErrors(s.Errors, s.ErrorRate), cls}}
			if r.Knee != nil && r.Knee.Step == k {
				cells[1].Class = strings.TrimSpace(cls + " knee")
			}
			cells[0].Class = strings.TrimSpace("group " + cls)
			return cells
		}
	}
	return []cell{{"-", "group"}, {"-", ""}, {"-", ""}}
}

func stepClass(r htmlRun, k int) string {
	var class []string
	if s := r.Steps[k]; s.Pass != nil && !*s.Pass {
		class = append(class, "fail")
	}
	if r.Capacity != nil && r.Capacity.OK && r.Capacity.Step == k {
		class = append(class, "cap")
	}
	return strings.Join(class, " ")
}

func detailRows(d *htmlData) []detailRow {
	rows := make([]detailRow, len(d.Runs))
	for i, r := range d.Runs {
		s := r.Summary
		rows[i] = detailRow{
			runHead: headOf(d, i), Load: s.Load, Duration: fmtSeconds(s.DurationS),
			NotSent: fmtInt(s.NotSent), CutOff: fmtInt(s.CutOff),
			MaxLag: fmtLatency(s.MaxLagMS), MeanLag: fmtLatency(s.MeanLagMS),
			ServiceP50: fmtLatency(s.ServiceP50MS), ServiceP99: fmtLatency(s.ServiceP99MS), Codes: fmtCodes(s.Codes),
		}
	}
	return rows
}

// loadShape describes how r's calls were paced.
func loadShape(r *load.Result) string {
	if n := len(r.Steps); n > 0 {
		first, last := r.Steps[0], r.Steps[n-1]
		return fmt.Sprintf("open loop, %s to %s/s in %d steps of %s",
			fmtRate(first.Offered), fmtRate(last.Offered), n, first.Duration.Round(time.Millisecond))
	}
	if r.Offered > 0 {
		return "open loop at " + fmtRate(r.Offered) + "/s"
	}
	return "closed loop"
}

// fmtLatency formats float milliseconds with three significant digits or
// so: "0.84 ms", "12.3 ms", "215 ms", "4.35 s".
func fmtLatency(v float64) string {
	switch {
	case v >= 1000:
		return fmtFloat(v/1000, 2) + " s"
	case v >= 100:
		return fmtFloat(v, 0) + " ms"
	case v >= 10:
		return fmtFloat(v, 1) + " ms"
	}
	return fmtFloat(v, 2) + " ms"
}

// fmtInt writes n with thousands separators.
func fmtInt(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// fmtRate writes a rate with separators, a decimal only below 100.
func fmtRate(v float64) string {
	if v < 100 {
		return fmtFloat(v, 1)
	}
	return fmtInt(int64(v + 0.5))
}

func fmtErrors(n int64, rate float64) string {
	if n == 0 {
		return "0"
	}
	return fmtInt(n) + " (" + fmtPercent(100*rate) + ")"
}

// fmtPercent writes a percentage with three significant digits or so.
func fmtPercent(v float64) string {
	switch {
	case v == 0:
		return "0%"
	case v < 0.001:
		return "< 0.001%"
	case v >= 10:
		return fmtFloat(v, 1) + "%"
	case v >= 1:
		return fmtFloat(v, 2) + "%"
	}
	return fmtFloat(v, 3) + "%"
}

func fmtCPU(us float64) string {
	if us == 0 {
		return "-"
	}
	return fmtFloat(us, 0) + " µs"
}

func fmtSeconds(s float64) string {
	return time.Duration(s * float64(time.Second)).Round(time.Millisecond).String()
}

// fmtCodes lists status codes by count, largest first.
func fmtCodes(codes map[string]int64) string {
	var parts []string
	for _, k := range byCount(codes) {
		parts = append(parts, k+" "+fmtInt(codes[k]))
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ", ")
}

// htmlMessages is how many error texts the report lists per run.
const htmlMessages = 5

func messageRows(d *htmlData) []messageRow {
	var rows []messageRow
	for i, r := range d.Runs {
		for k, m := range byCount(r.Summary.Messages) {
			if k == htmlMessages {
				break
			}
			rows = append(rows, messageRow{runHead: headOf(d, i), Count: fmtInt(r.Summary.Messages[m]), Message: m})
		}
	}
	return rows
}
