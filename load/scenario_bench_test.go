package load

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkScenario compares the load generator's own CPU time per call
// for one flow and for three flows sharing the same calls, on a target
// that does nothing: open loop at 30000 calls/s in all (weights 1:1:1 for
// three flows), and closed loop with 6 callers in all.
func BenchmarkScenario(b *testing.B) {
	noop := func(context.Context) error { return nil }
	for _, loop := range []string{"open", "closed"} {
		for _, n := range []int{1, 3} {
			b.Run(fmt.Sprintf("%s/flows=%d", loop, n), func(b *testing.B) {
				sc := Scenario{Pacer: Constant{Rate: 30000}}
				for i := range n {
					f := Flow{Name: fmt.Sprint(i), Target: noop, Options: Options{Count: int64(max(b.N/n, 1))}}
					if loop == "open" {
						f.Weight = 1
					} else {
						f.Options.Concurrency = 6 / n
					}
					sc.Flows = append(sc.Flows, f)
				}
				b.ResetTimer()
				cpu := processCPU()
				res, err := RunScenario(context.Background(), sc)
				if err != nil {
					b.Fatal(err)
				}
				used := processCPU() - cpu
				b.ReportMetric(float64(used)/float64(res.Total.Calls), "cpu-ns/call")
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}
