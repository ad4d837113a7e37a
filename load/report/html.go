package report

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"time"

	"github.com/rpckit/rpckit/load"
)

// A Run is one labelled result of a report of several.
type Run struct {
	Name   string
	Result *load.Result
}

// HTMLOptions configure WriteHTML. The zero value gives a report titled
// "rpckit bench" with no SLO.
type HTMLOptions struct {
	// Title heads the page.
	Title string
	// SLO, when set, adds verdicts, each ramp step's pass or fail, the
	// capacity, and the SLO's latency limit as a line on the plots.
	SLO SLO
	// Settings are lines describing the runs (target, rate, duration ...).
	Settings []string
	// Generated is the time printed on the report; zero means now.
	Generated time.Time
}

var (
	//go:embed assets/uPlot.iife.min.js
	uplotJS string
	//go:embed assets/uPlot.min.css
	uplotCSS string
	//go:embed assets/report.js
	reportJS string
	//go:embed assets/report.css
	reportCSS string
)

// WriteHTML writes one self-contained HTML page comparing runs: a summary
// table, SLO verdicts, and plots of latency and throughput over time, the
// latency-by-percentile spectrum, and for rate ramps latency against load
// with the capacity marked. Plotting (uPlot) and data are inlined, so the
// file works offline from disk. The data is also in the page as JSON, in
// <script type="application/json" id="rpckit-data">.
func WriteHTML(w io.Writer, opts HTMLOptions, runs ...Run) error {
	if len(runs) == 0 {
		return fmt.Errorf("report: html: no runs")
	}
	for i, r := range runs {
		if r.Result == nil {
			return fmt.Errorf("report: html: run %d (%q) has no result", i+1, r.Name)
		}
	}
	if opts.Title == "" {
		opts.Title = "rpckit bench"
	}
	data, err := json.Marshal(newHTMLData(opts, runs)) // escapes <, > and & for HTML
	if err != nil {
		return fmt.Errorf("report: html: %w", err)
	}
	bw := bufio.NewWriter(w)
	writePage(bw, opts.Title, data)
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("report: write html: %w", err)
	}
	return nil
}

func writePage(w *bufio.Writer, title string, data []byte) {
	w.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	w.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	w.WriteString("<meta name=\"generator\" content=\"rpckit\">\n")
	fmt.Fprintf(w, "<title>%s</title>\n", html.EscapeString(title))
	fmt.Fprintf(w, "<style>\n%s\n%s\n</style>\n</head>\n<body>\n", uplotCSS, reportCSS)
	fmt.Fprintf(w, "<main id=\"report\"><h1>%s</h1><noscript>The plots need JavaScript; the data is in the page source as JSON.</noscript></main>\n", html.EscapeString(title))
	w.WriteString("<script type=\"application/json\" id=\"rpckit-data\">")
	w.Write(data)
	w.WriteString("</script>\n<script>\n")
	w.WriteString(uplotJS)
	w.WriteString("\n</script>\n<script>\n")
	w.WriteString(reportJS)
	w.WriteString("\n</script>\n</body>\n</html>\n")
}
