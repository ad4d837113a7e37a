package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/rpckit/rpckit/load"
	"github.com/rpckit/rpckit/load/report"
	"github.com/spf13/cobra"
)

func newBenchMergeCmd(stdio Stdio) *cobra.Command {
	var format, output, sloText string
	cmd := &cobra.Command{
		Use:   "merge LOG...",
		Short: "Combine HdrHistogram interval logs (from --hdr-log) into exact percentiles",
		Long: `Combine HdrHistogram interval logs written by 'rpckit bench --hdr-log', for
example by bench pods on several machines, into one report with exact
combined percentiles. Logs carry latencies only, not status codes.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("want at least one log file")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			logs := make([]*report.Log, 0, len(args))
			for _, path := range args {
				l, err := readLog(path)
				if err != nil {
					return err
				}
				logs = append(logs, l)
			}
			bf := benchFlags{format: format, output: output}
			var slo report.SLO
			if sloText != "" {
				var err error
				if slo, err = report.ParseSLO(sloText); err != nil {
					return usageError{err}
				}
			}
			res := report.LogResult(logs...)
			if err := writeReport(stdio, &bf, res, slo); err != nil {
				return err
			}
			if slo != nil && !slo.Met(res) {
				return &exitError{code: exitSLOFailed}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&sloText, "slo", "", "latency objectives such as 'p99<200ms'; exit 3 when missed")
	cmd.Flags().StringVar(&format, "format", "text", "report format: text, json or csv")
	cmd.Flags().StringVarP(&output, "output", "o", "", "write the report to `file` instead of stdout")
	return cmd
}

func readLog(path string) (*report.Log, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	l, err := report.ReadLog(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return l, nil
}

func newBenchCompareCmd(stdio Stdio) *cobra.Command {
	return &cobra.Command{
		Use:   "compare A.json B.json",
		Short: "Compare two JSON bench reports side by side, with the ratios B/A",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 2 {
				return usagef("want two JSON reports, got %d", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			a, err := readResult(args[0])
			if err != nil {
				return err
			}
			b, err := readResult(args[1])
			if err != nil {
				return err
			}
			return report.WriteCompare(stdio.Out, a, b, args[0], args[1])
		},
	}
}

func readResult(path string) (*load.Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := report.ReadJSON(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

func newBenchReportCmd(stdio Stdio) *cobra.Command {
	var out, slo, title string
	cmd := &cobra.Command{
		Use:   "report -o report.html RUN.json...",
		Short: "Render JSON bench reports as one HTML report with plots, runs side by side",
		Long: `Render one or more JSON reports of rpckit bench (--format json) as one HTML
page: a summary table, SLO verdicts and, for rate ramps, latency against load
with the capacity marked; latency and throughput over time; and the latency
spectrum. The page is self-contained (it works offline, from disk). Each run
is named after its file.`,
		Example: "  rpckit bench report --slo 'p99<200ms,errors<0.1%' -o report.html grpc.json http.json",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("want at least one JSON report")
			}
			if out == "" {
				return usagef("-o is required")
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
			for _, path := range args {
				res, err := readResult(path)
				if err != nil {
					return err
				}
				runs = append(runs, report.Run{Name: strings.TrimSuffix(filepath.Base(path), ".json"), Result: res})
			}
			return writeHTMLReport(out, opts, runs...)
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "the HTML `file` to write")
	cmd.Flags().StringVar(&slo, "slo", "", "objectives such as 'p99<200ms,errors<0.1%' for verdicts and capacity")
	cmd.Flags().StringVar(&title, "title", "rpckit bench", "the report's title")
	return cmd
}

// writeHTMLReport writes an HTML report to path, whole or not at all.
func writeHTMLReport(path string, opts report.HTMLOptions, runs ...report.Run) error {
	return writeOutput(nil, path, func(w io.Writer) error { return report.WriteHTML(w, opts, runs...) })
}

// benchSettings describes a run's load settings for the HTML report.
func benchSettings(f *benchFlags) []string {
	var s []string
	switch {
	case f.rate != "":
		s = append(s, "open loop at "+f.rate+" calls/s")
		if strings.Contains(f.rate, ":") {
			s[0] += ", steps of " + f.step.String()
		}
	default:
		s = append(s, fmt.Sprintf("closed loop, %d in flight", max(f.concurrency, 1)))
	}
	if f.warmup > 0 {
		s = append(s, "warm-up "+f.warmup.String()+" (not measured)")
	}
	return s
}
