package cli

import (
	"fmt"
	"os"

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
combined percentiles. Logs carry latencies only (failed calls' apart), not
status codes or error texts. Exit codes as for bench: 1 when no call
succeeded, 3 when --slo was missed.`,
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
			return benchOutcome(stdio.Err, res, slo)
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
