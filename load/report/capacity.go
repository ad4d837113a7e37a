package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/rpckit/rpckit/load"
)

// Capacity is the highest offered rate of a ramp that met the SLO: the rate
// of the last step before the first one that failed it. A Result without
// steps counts as one step. It reports the step (0-based) and false when
// even the first step failed.
func Capacity(r *load.Result, slo SLO) (rate float64, step int, ok bool) {
	step = -1
	for i, s := range steps(r) {
		if !slo.Met(s) {
			break
		}
		rate, step, ok = s.Offered, i, true
	}
	return rate, step, ok
}

func steps(r *load.Result) []*load.Result {
	if len(r.Steps) == 0 {
		return []*load.Result{r}
	}
	return r.Steps
}

// KneeOptions tune Knee. The zero value is the default.
type KneeOptions struct {
	// Jump is how many times the previous step's p99 a step's p99 must
	// reach to be the knee (default 2).
	Jump float64
	// Track is the fraction of the offered rate a step must achieve;
	// below it throughput has stopped tracking the load (default 0.9).
	Track float64
}

// A Knee is the step of a ramp where the service stopped keeping up.
type Knee struct {
	Step   int     `json:"step"`   // 0-based
	Rate   float64 `json:"rate"`   // its offered rate
	Reason string  `json:"reason"` // what gave it away
}

// FindKnee returns the first step whose corrected p99 is Jump times the
// previous step's or more, or whose achieved rate falls below Track of its
// offered rate; false if no step does.
func FindKnee(r *load.Result, opts KneeOptions) (Knee, bool) {
	if opts.Jump <= 0 {
		opts.Jump = 2
	}
	if opts.Track <= 0 {
		opts.Track = 0.9
	}
	ss := steps(r)
	for i, s := range ss {
		if reason := kneeReason(ss, i, opts); reason != "" {
			return Knee{Step: i, Rate: s.Offered, Reason: reason}, true
		}
	}
	return Knee{Step: -1}, false
}

func kneeReason(ss []*load.Result, i int, opts KneeOptions) string {
	s := ss[i]
	if s.Offered > 0 && s.Rate() < opts.Track*s.Offered {
		return fmt.Sprintf("achieved %.2f/s of %.2f/s offered", s.Rate(), s.Offered)
	}
	if i == 0 {
		return ""
	}
	prev, cur := ss[i-1].Corrected.Percentile(99), s.Corrected.Percentile(99)
	if prev > 0 && float64(cur) >= opts.Jump*float64(prev) {
		return fmt.Sprintf("p99 %s, %.1fx the previous step's %s", fmtUnit(cur), float64(cur)/float64(prev), fmtUnit(prev))
	}
	return ""
}

// WriteVerdicts writes the verdict of each clause on the whole run; for a
// ramp, each step's outcome (with the clauses it failed) and the capacity.
func WriteVerdicts(w io.Writer, r *load.Result, slo SLO) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "\nSLO:\n")
	for _, v := range slo.Check(r) {
		fmt.Fprintf(bw, "  %s\n", v)
	}
	if len(r.Steps) > 0 {
		writeStepVerdicts(bw, r, slo)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("report: write verdicts: %w", err)
	}
	return nil
}

func writeStepVerdicts(w io.Writer, r *load.Result, slo SLO) {
	fmt.Fprintf(w, "\nSteps:\n")
	for i, s := range r.Steps {
		var failed []string
		for _, v := range slo.Check(s) {
			if !v.Pass {
				failed = append(failed, v.String())
			}
		}
		outcome := "PASS"
		if len(failed) > 0 {
			outcome = "FAIL (" + strings.Join(failed, "; ") + ")"
		}
		fmt.Fprintf(w, "  step %d at %.2f/s: %s\n", i+1, s.Offered, outcome)
	}
	if rate, step, ok := Capacity(r, slo); ok {
		fmt.Fprintf(w, "\nCapacity: %.2f/s (step %d)\n", rate, step+1)
	} else {
		fmt.Fprintf(w, "\nCapacity: none (step 1 failed)\n")
	}
	if k, ok := FindKnee(r, KneeOptions{}); ok {
		fmt.Fprintf(w, "Knee: step %d at %.2f/s: %s\n", k.Step+1, k.Rate, k.Reason)
	}
}
