package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/rpckit/rpckit/load"
)

// A compareRow is one metric of two results.
type compareRow struct {
	name string
	a, b float64
	fmt  func(float64) string
}

// WriteCompare writes a and b side by side with the ratio b/a per metric:
// counts, rates, errors and corrected and service-time latencies. names
// head the columns (default "A" and "B").
func WriteCompare(w io.Writer, a, b *load.Result, nameA, nameB string) error {
	if nameA == "" {
		nameA = "A"
	}
	if nameB == "" {
		nameB = "B"
	}
	bw := bufio.NewWriter(w)
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "metric\t%s\t%s\t%s/%s\t\n", nameA, nameB, nameB, nameA)
	for _, r := range compareRows(a, b) {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", r.name, r.fmt(r.a), r.fmt(r.b), ratio(r.a, r.b))
	}
	tw.Flush()
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("report: write compare: %w", err)
	}
	return nil
}

func compareRows(a, b *load.Result) []compareRow {
	count := func(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) }
	rate := func(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }
	pct := func(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) + "%" }
	rows := []compareRow{
		{"calls", float64(a.Calls), float64(b.Calls), count},
		{"rps", a.Rate(), b.Rate(), rate},
		{"errors", 100 * a.ErrorRate(), 100 * b.ErrorRate(), pct},
		{"not sent", float64(a.NotSent), float64(b.NotSent), count},
	}
	lat := func(name string, f func(*load.Histogram) time.Duration) {
		rows = append(rows, compareRow{name, ms(f(a.Corrected)), ms(f(b.Corrected)), fmtMSValue})
	}
	lat("min", (*load.Histogram).Min)
	lat("mean", (*load.Histogram).Mean)
	for _, p := range load.StandardPercentiles()[:len(load.StandardPercentiles())-1] {
		lat("p"+strconv.FormatFloat(p, 'f', -1, 64), func(h *load.Histogram) time.Duration { return h.Percentile(p) })
	}
	lat("max", (*load.Histogram).Max)
	for _, p := range []float64{50, 99} {
		name := "service p" + strconv.FormatFloat(p, 'f', -1, 64)
		rows = append(rows, compareRow{name, ms(a.Service.Percentile(p)), ms(b.Service.Percentile(p)), fmtMSValue})
	}
	return rows
}

func fmtMSValue(v float64) string {
	return strconv.FormatFloat(v, 'f', 3, 64) + "ms"
}

// ratio is b/a, or "-" when a is zero.
func ratio(a, b float64) string {
	if a == 0 {
		return "-"
	}
	return strconv.FormatFloat(b/a, 'f', 2, 64) + "x"
}
