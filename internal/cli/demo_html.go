package cli

import (
	"fmt"
	"path/filepath"

	"github.com/rpckit/rpckit/load/report"
)

// writeDemoHTML writes the HTML report of the runs into dir and returns
// its path.
func writeDemoHTML(dir string, plan demoPlan, runs []*demoRun, slo report.SLO) (string, error) {
	path := filepath.Join(dir, "report.html")
	opts := report.HTMLOptions{
		Title: "rpckit demo: Rank over gRPC and HTTP/1.1",
		SLO:   slo,
		Settings: []string{
			fmt.Sprintf("Rank with %d candidates, open loop at %s calls/s, %d steps of %s after a %s warm-up",
				plan.candidates, plan.rate, plan.steps, plan.step, plan.warmup),
			"each transport load-tested by rpckit bench in a process of its own; the service and the gateway in the demo's process",
		},
	}
	reps := make([]report.Run, len(runs))
	for i, r := range runs {
		reps[i] = report.Run{Name: r.Name, Result: r.Res}
	}
	return path, writeHTMLReport(path, opts, reps...)
}
