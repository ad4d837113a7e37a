package load

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// A Scenario is several flows of calls run at once, each with its own
// target and executor. A single-target run is a one-flow scenario.
type Scenario struct {
	// Flows run side by side, all starting together; at least one.
	Flows []Flow
	// Pacer is the overall schedule that flows with a Weight share; needed
	// when one has a Weight.
	Pacer Pacer
	// Progress, if set, gets each flow's progress, with the flow's index in
	// Flows. Calls for different flows may come at once from different
	// goroutines. A flow's own Options.Progress is called as well.
	Progress func(flow int, p Progress)
}

// A Flow is one named stream of calls in a Scenario.
type Flow struct {
	// Name labels the flow's results; names are unique in a scenario.
	Name string
	// Target is the flow's call.
	Target Target
	// Options are the flow's executor and bounds, as for Run: a Pacer for
	// an arrival rate (Constant, or Steps and Linear for ramps), no Pacer
	// for a closed loop of Concurrency callers, or Callers for a closed
	// loop whose callers ramp.
	Options Options
	// Weight, when positive, gives the flow a share of the scenario's
	// Pacer: Weight over the sum of the weights. Options.Pacer must then
	// be nil.
	Weight float64
}

// A ScenarioResult is what a scenario measured: each flow's Result and
// their sum.
//
// The flows share one process, so the CPU time of a flow cannot be told
// apart from the others': a flow's Result.CPU is the process's shared out
// by the flow's part of the timed calls, and Total.CPU is the process's.
type ScenarioResult struct {
	Flows []FlowResult // in the order of Scenario.Flows
	// Total merges the flows (see Merge); for one flow it is that flow's
	// Result.
	Total *Result
}

// A FlowResult is one flow's Result.
type FlowResult struct {
	Name string
	*Result
}

// RunScenario runs the flows of sc at once, each as Run runs a target, and
// returns what each measured and the total. When ctx is done it stops
// every flow and returns the results so far with Run's error.
func RunScenario(ctx context.Context, sc Scenario) (*ScenarioResult, error) {
	flows, err := sc.plan()
	if err != nil {
		return nil, err
	}
	results := make([]*Result, len(flows))
	errs := make([]error, len(flows))
	var wg sync.WaitGroup
	for i, f := range flows {
		wg.Go(func() { results[i], errs[i] = Run(ctx, f.Options, f.Target) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil && ctx.Err() == nil {
			return nil, fmt.Errorf("load: flow %q: %w", flows[i].Name, err)
		}
	}
	return newScenarioResult(flows, results), firstError(errs)
}

func firstError(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// plan checks the flows and gives each its options: weighted shares of
// the scenario's pacer, progress reports, defaults checked up front so that
// no flow starts when another cannot.
func (sc Scenario) plan() ([]Flow, error) {
	if len(sc.Flows) == 0 {
		return nil, errors.New("load: scenario has no flows")
	}
	weights, err := sc.weights()
	if err != nil {
		return nil, err
	}
	flows := make([]Flow, len(sc.Flows))
	seen := make(map[string]bool, len(flows))
	for i, f := range sc.Flows {
		if seen[f.Name] {
			return nil, fmt.Errorf("load: two flows are named %q", f.Name)
		}
		seen[f.Name] = true
		if f, err = sc.planFlow(i, f, weights); err != nil {
			return nil, err
		}
		flows[i] = f
	}
	return flows, nil
}

// weights sums the flows' weights and checks them against the pacer.
func (sc Scenario) weights() (float64, error) {
	var sum float64
	for _, f := range sc.Flows {
		switch {
		case f.Weight < 0 || f.Weight != f.Weight:
			return 0, fmt.Errorf("load: flow %q: weight %g is not positive", f.Name, f.Weight)
		case f.Weight > 0 && f.Options.Pacer != nil:
			return 0, fmt.Errorf("load: flow %q: has both a weight and a pacer of its own", f.Name)
		}
		sum += f.Weight
	}
	if sum > 0 && sc.Pacer == nil {
		return 0, errors.New("load: flows have weights but the scenario has no pacer to share")
	}
	return sum, nil
}

func (sc Scenario) planFlow(i int, f Flow, weights float64) (Flow, error) {
	if f.Target == nil {
		return f, fmt.Errorf("load: flow %q: nil target", f.Name)
	}
	if f.Weight > 0 {
		p, err := SharePacer(sc.Pacer, f.Weight/weights)
		if err != nil {
			return f, fmt.Errorf("load: flow %q: %w", f.Name, err)
		}
		f.Options.Pacer = p
	}
	if _, err := f.Options.withDefaults(); err != nil {
		return f, fmt.Errorf("load: flow %q: %w", f.Name, err)
	}
	if own, all := f.Options.Progress, sc.Progress; all != nil {
		f.Options.Progress = func(p Progress) {
			all(i, p)
			if own != nil {
				own(p)
			}
		}
	}
	return f, nil
}

// SharePacer returns the part of p's schedule that a flow with a share of
// its calls (0 < share <= 1) makes: the same shape at share times the
// rate. p must be a Constant, Steps or Linear.
func SharePacer(p Pacer, share float64) (Pacer, error) {
	if !(share > 0 && share <= 1) {
		return nil, fmt.Errorf("share %g is not in (0, 1]", share)
	}
	switch p := p.(type) {
	case Constant:
		return Constant{Rate: p.Rate * share}, nil
	case Steps:
		rates := make([]float64, len(p.Rates))
		for i, r := range p.Rates {
			rates[i] = r * share
		}
		return Steps{Rates: rates, Step: p.Step}, nil
	case Linear:
		return Linear{From: p.From * share, To: p.To * share, Over: p.Over}, nil
	}
	return nil, fmt.Errorf("cannot share a pacer of type %T by weight", p)
}

func newScenarioResult(flows []Flow, results []*Result) *ScenarioResult {
	out := &ScenarioResult{Flows: make([]FlowResult, len(flows))}
	for i, f := range flows {
		out.Flows[i] = FlowResult{Name: f.Name, Result: results[i]}
	}
	if len(results) == 1 {
		out.Total = results[0]
		return out
	}
	out.Total = Merge(results...)
	shareCPU(out.Total, results)
	return out
}

// shareCPU undoes Merge's sum of the flows' CPU times, each of which is
// the whole process's: the total is the process's over the longest flow,
// a series point's the most any flow saw, and each flow gets the part of
// the total its timed calls make.
func shareCPU(total *Result, flows []*Result) {
	total.CPU = 0
	for i := range total.Series {
		total.Series[i].CPU = 0
	}
	for _, r := range flows {
		total.CPU = max(total.CPU, r.CPU)
		for i, p := range r.Series {
			total.Series[i].CPU = max(total.Series[i].CPU, p.CPU)
		}
	}
	for _, r := range flows {
		r.CPU = cpuShare(total.CPU, r.Calls, total.Calls)
	}
}

func cpuShare(cpu time.Duration, calls, of int64) time.Duration {
	if of == 0 {
		return 0
	}
	return time.Duration(float64(cpu) * float64(calls) / float64(of))
}
