package report

import (
	"bufio"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"strings"
	"time"

	"github.com/rpckit/rpckit/load"
)

// A Run is one labelled result of a report of several.
type Run struct {
	Name   string
	Result *load.Result
	// SLO, when set, is the run's own, in place of HTMLOptions.SLO: a
	// flow's of a run of several flows.
	SLO SLO
}

// HTMLOptions configure WriteHTML. The zero value gives a report titled
// "rpckit bench" with no SLO, generated now.
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

// The page's assets, inlined into every report. See assets/README.md.
var (
	//go:embed assets/report.js
	reportJS string
	//go:embed assets/report.css
	reportCSS string
	//go:embed assets/report.tmpl
	pageTemplate string
)

//go:embed assets/uPlot.iife.min.js assets/uPlot.min.css assets/uPlot.LICENSE
var uplotFS embed.FS

// UPlot holds the plotting library the report inlines, for pages that
// serve it as files: uPlot.iife.min.js, uPlot.min.css and uPlot.LICENSE.
func UPlot() fs.FS {
	sub, _ := fs.Sub(uplotFS, "assets")
	return sub
}

var pageTmpl = template.Must(template.New("report").Parse(pageTemplate))

// pageAssets are the scripts and style sheets a page inlines; tests swap
// them for markers.
type pageAssets struct {
	scripts []string
	css     []string
}

var embeddedAssets = pageAssets{
	scripts: []string{uplotAsset("uPlot.iife.min.js"), reportJS},
	css:     []string{uplotAsset("uPlot.min.css"), reportCSS},
}

// uplotAsset is one of uPlot's embedded files; they are embedded once, for
// both the report and UPlot's users. The go:embed line names every file,
// so the read cannot fail.
func uplotAsset(name string) string {
	b, _ := fs.ReadFile(UPlot(), name)
	return string(b)
}

// WriteHTML writes one self-contained HTML page comparing runs: a summary
// table, SLO verdicts with each ramp's capacity and knee, plots of latency
// against load for ramps, of latency and throughput over time, and of the
// latency-by-percentile spectrum, and the runs' details. The plotting
// library (uPlot), the script and the data are inlined and a
// Content-Security-Policy forbids loading anything, so the file works
// offline, opened from disk. The plots' data is in the page as one JSON
// object, in <script type="application/json" id="rpckit-data">.
func WriteHTML(w io.Writer, opts HTMLOptions, runs ...Run) error {
	return writeHTML(w, opts, runs, embeddedAssets)
}

func writeHTML(w io.Writer, opts HTMLOptions, runs []Run, assets pageAssets) error {
	if len(runs) == 0 {
		return fmt.Errorf("report: html: no runs")
	}
	for i, r := range runs {
		if r.Result == nil || r.Result.Corrected == nil {
			return fmt.Errorf("report: html: run %d (%q) has no result", i+1, r.Name)
		}
	}
	if opts.Title == "" {
		opts.Title = "rpckit bench"
	}
	if opts.Generated.IsZero() {
		opts.Generated = time.Now()
	}
	opts.Generated = opts.Generated.UTC().Truncate(time.Second)
	page, err := newPage(opts, runs, assets)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	if err := pageTmpl.Execute(bw, page); err != nil {
		return fmt.Errorf("report: write html: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("report: write html: %w", err)
	}
	return nil
}

// A page is what the template renders.
type page struct {
	Title, Generated, SLO string
	Settings              []string
	CSP                   string
	CSS                   template.CSS
	Scripts               []template.JS
	Data                  template.JS

	Summary   []htmlSummaryRow
	Verdicts  *verdictTable
	Steps     *stepTable
	Server    []serverTable
	Details   []detailRow
	Messages  []messageRow
	Seconds   bool // whether there are time series to plot
	SLOLine   bool // whether the plots draw the SLO's latency limit
	Offered   bool // whether a run has an offered rate to plot
	AnyErrors bool
}

func newPage(opts HTMLOptions, runs []Run, assets pageAssets) (*page, error) {
	d := newHTMLData(opts, runs)
	// json.Marshal escapes <, > and & (and U+2028, U+2029), so no label can
	// end the script element the data sits in.
	data, err := json.Marshal(d)
	if err != nil {
		return nil, fmt.Errorf("report: html: %w", err)
	}
	p := &page{
		Title: opts.Title, Generated: opts.Generated.Format("2006-01-02 15:04:05 UTC"), SLO: d.SLO,
		Settings: opts.Settings, CSS: template.CSS(strings.Join(assets.css, "\n")), Data: template.JS(data),
		Summary: summaryRows(d), Verdicts: verdictsOf(d, runs, opts.SLO), Steps: stepsOf(d),
		Server: serverTables(runs), Details: detailRows(d), Messages: messageRows(d),
		Seconds: len(d.Seconds) > 0, SLOLine: d.SLOLimit > 0, Offered: anyOffered(runs), AnyErrors: anyErrors(runs),
	}
	for _, s := range assets.scripts {
		p.Scripts = append(p.Scripts, template.JS(s))
	}
	p.CSP = contentSecurityPolicy(assets.scripts)
	return p, nil
}

// contentSecurityPolicy allows the page's own inline scripts (by hash) and
// styles, and nothing else: no network, no other script.
func contentSecurityPolicy(scripts []string) string {
	var b strings.Builder
	b.WriteString("default-src 'none'; script-src")
	for _, s := range scripts {
		sum := sha256.Sum256([]byte(s))
		b.WriteString(" 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'")
	}
	b.WriteString("; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'")
	return b.String()
}

func anyErrors(runs []Run) bool {
	for _, r := range runs {
		if r.Result.Errors > 0 || r.Result.NotSent > 0 {
			return true
		}
	}
	return false
}

func anyOffered(runs []Run) bool {
	for _, r := range runs {
		if r.Result.Offered > 0 || len(r.Result.Steps) > 0 {
			return true
		}
	}
	return false
}
