package report_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/rpckit/rpckit/load"
	"github.com/rpckit/rpckit/load/report"
)

// A closed-loop run of 1000 calls on 4 workers that writes an HdrHistogram
// interval log as it goes (here to io.Discard), then checks the run
// against an SLO. Every 100th call fails, so the error-rate clause fails.
func Example() {
	var log *report.LogWriter
	var n atomic.Int64
	opts := load.Options{
		Concurrency: 4,
		Count:       1000,
		Progress: func(p load.Progress) {
			if p.Warmup {
				return
			}
			if log == nil {
				log, _ = report.NewLogWriter(io.Discard, p.Start)
			}
			_ = log.WriteInterval(p.Interval.At, p.Interval.Length, p.Corrected, p.Service)
		},
	}
	target := func(ctx context.Context) error { // the call to measure
		if n.Add(1)%100 == 0 {
			return errors.New("unavailable")
		}
		return nil
	}
	res, err := load.Run(context.Background(), opts, target)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("calls:", res.Calls, "errors:", res.Errors)
	slo, err := report.ParseSLO("p99<1s,errors<0.1%")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range slo.Check(res) {
		fmt.Println(v.Clause.Text, "pass:", v.Pass)
	}
	// Output:
	// calls: 1000 errors: 10
	// p99<1s pass: true
	// errors<0.1% pass: false
}
