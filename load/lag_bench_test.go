package load

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"
)

// BenchmarkPacerLag runs the open loop against a target that returns at
// once, so a call's corrected latency is its scheduling lag (intended start
// to send) plus a few hundred nanoseconds. Each iteration is a run of half
// a second at the rate; the metrics are over all of them: lag-p50-µs and
// lag-p99-µs, and cpu-ns/call, the process CPU time per call (the pacer,
// the workers and recording, with the target free).
func BenchmarkPacerLag(b *testing.B) {
	for _, rate := range []float64{1000, 5000, 20000} {
		b.Run(fmt.Sprintf("%gk", rate/1000), func(b *testing.B) {
			lag := NewHistogram()
			var cpu time.Duration
			var calls int64
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for b.Loop() {
				res, err := Run(context.Background(), Options{
					Pacer:    Constant{Rate: rate},
					Warmup:   50 * time.Millisecond,
					Duration: 500 * time.Millisecond,
				}, func(context.Context) error { return nil })
				if err != nil {
					b.Fatal(err)
				}
				lag.Merge(res.Corrected)
				cpu += res.CPU
				calls += res.Calls
			}
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(max(calls, 1)), "allocs/call")
			b.ReportMetric(float64(lag.Percentile(50))/1e3, "lag-p50-µs")
			b.ReportMetric(float64(lag.Percentile(99))/1e3, "lag-p99-µs")
			b.ReportMetric(float64(cpu)/float64(max(calls, 1)), "cpu-ns/call")
			b.ReportMetric(0, "ns/op")
		})
	}
}
