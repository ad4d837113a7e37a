package report_test

import (
	"context"
	"os"
	"time"

	"github.com/rpckit/rpckit/load"
	"github.com/rpckit/rpckit/load/report"
)

// A run at 100 calls/s for 10 s that writes an HdrHistogram interval log
// as it goes, then the console summary, then its SLO verdicts.
func Example() {
	var log *report.LogWriter
	opts := load.Options{
		Pacer:    load.Constant{Rate: 100},
		Duration: 10 * time.Second,
		Progress: func(p load.Progress) {
			if p.Warmup {
				return
			}
			if log == nil {
				log, _ = report.NewLogWriter(os.Stderr, p.Start)
			}
			_ = log.WriteInterval(p.Interval.At, p.Interval.Length, p.Corrected, p.Service)
		},
	}
	target := func(ctx context.Context) error {
		time.Sleep(time.Millisecond) // the call to measure
		return nil
	}
	res, err := load.Run(context.Background(), opts, target)
	if err != nil {
		return
	}
	_ = report.WriteText(os.Stdout, res, report.TextOptions{})
	if slo, err := report.ParseSLO("p99<200ms,errors<0.1%"); err == nil {
		_ = report.WriteVerdicts(os.Stdout, res, slo)
	}
}
