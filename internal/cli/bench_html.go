package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/rpckit/rpckit/load/report"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func newBenchReportCmd(stdio Stdio) *cobra.Command {
	var out, slo, title string
	cmd := &cobra.Command{
		Use:   "report --html FILE RUN.json...",
		Short: "Render JSON bench reports as one HTML report with plots, runs side by side",
		Long: `Render one or more JSON reports of rpckit bench (--format json) as one HTML
page: a summary table, SLO verdicts and, for rate ramps, latency against load
with the capacity and knee marked; latency and throughput over time; the
latency spectrum; and the runs' details. The page is self-contained (it works
offline, from disk). Each run is named after its file, or after LABEL when
given as LABEL=FILE.`,
		Example: "  rpckit bench report --slo 'p99<200ms,errors<0.1%' --html report.html grpc.json 'HTTP/1.1=http.json'",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("want at least one JSON report")
			}
			if out == "" {
				return usagef("--html FILE is required")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts := report.HTMLOptions{Title: title}
			if slo != "" {
				var err error
				if opts.SLO, err = report.ParseSLO(slo); err != nil {
					return usageError{err}
				}
			}
			var runs []report.Run
			for _, arg := range args {
				name, path := runArg(arg)
				res, err := readResult(path)
				if err != nil {
					return err
				}
				runs = append(runs, report.Run{Name: name, Result: res})
			}
			return writeHTMLOutput(stdio.Out, out, opts, runs...)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&out, "html", "", "the HTML `file` to write (- for stdout)")
	fs.StringVarP(&out, "output", "o", "", "the same as --html")
	fs.StringVar(&slo, "slo", "", "objectives such as 'p99<200ms,errors<0.1%' for verdicts and capacity")
	fs.StringVar(&title, "title", "rpckit bench", "the report's title")
	return cmd
}

// runArg splits a bench report argument into the run's name and its file:
// LABEL=FILE, or FILE named after its base name without .json.
func runArg(arg string) (name, path string) {
	if label, file, ok := strings.Cut(arg, "="); ok && label != "" {
		if _, err := os.Stat(arg); err != nil { // a file name with '=' wins
			return label, file
		}
	}
	return strings.TrimSuffix(filepath.Base(arg), ".json"), arg
}

// writeHTMLReport writes an HTML report to the file path, whole or not at
// all.
func writeHTMLReport(path string, opts report.HTMLOptions, runs ...report.Run) error {
	return writeHTMLOutput(nil, path, opts, runs...)
}

// writeHTMLOutput writes an HTML report to path, whole or not at all, or
// to stdout when path is "-".
func writeHTMLOutput(stdout io.Writer, path string, opts report.HTMLOptions, runs ...report.Run) error {
	return writeOutput(stdout, path, func(w io.Writer) error { return report.WriteHTML(w, opts, runs...) })
}

// benchSettings describes a run's load settings for the HTML report: the
// pacing, and the flags given, with request data and metadata left out.
func benchSettings(f *benchFlags, fs *pflag.FlagSet) []string {
	var s []string
	switch {
	case f.rate != "":
		s = append(s, "open loop at "+f.rate+" calls/s")
		if strings.Contains(f.rate, ":") {
			s[0] += ", steps of " + f.step.String()
		}
		if f.opts.Concurrency > 0 {
			s[0] += fmt.Sprintf(", at most %d in flight", f.opts.Concurrency)
		}
	default:
		s = append(s, fmt.Sprintf("closed loop, %d in flight", max(f.opts.Concurrency, 1)))
	}
	if f.opts.Warmup > 0 {
		s = append(s, "warm-up "+f.opts.Warmup.String()+" (not measured)")
	}
	if flags := changedFlags(fs); flags != "" {
		s = append(s, "flags: "+flags)
	}
	return s
}

// changedFlags lists the flags set on the command line, except those that
// only choose outputs; request data, bodies and metadata show as "…", as
// they may hold credentials.
func changedFlags(fs *pflag.FlagSet) string {
	skip := map[string]bool{"output": true, "html": true, "hdr-log": true, "format": true, "progress": true, "spectrum": true}
	secret := map[string]bool{"data": true, "body": true, "header": true, "rpc-header": true, "reflect-header": true, "http-header": true}
	var parts []string
	fs.Visit(func(fl *pflag.Flag) {
		switch {
		case skip[fl.Name]:
		case secret[fl.Name]:
			parts = append(parts, "--"+fl.Name+" …")
		case fl.Value.Type() == "bool" && fl.Value.String() == "true":
			parts = append(parts, "--"+fl.Name)
		default:
			parts = append(parts, "--"+fl.Name+"="+fl.Value.String())
		}
	})
	return strings.Join(parts, " ")
}
