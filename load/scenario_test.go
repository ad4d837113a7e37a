package load

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func counter(n *atomic.Int64) Target {
	return func(context.Context) error {
		n.Add(1)
		return nil
	}
}

func runScenarioBounded(t *testing.T, sc Scenario) *ScenarioResult {
	t.Helper()
	ch := make(chan *ScenarioResult, 1)
	go func() {
		res, err := RunScenario(context.Background(), sc)
		if err != nil {
			t.Error(err)
		}
		ch <- res
	}()
	select {
	case res := <-ch:
		if res == nil {
			t.FailNow()
		}
		return res
	case <-time.After(30 * time.Second):
		t.Fatal("RunScenario did not stop")
		return nil
	}
}

func TestScenarioWeights(t *testing.T) {
	t.Parallel()
	var a, b atomic.Int64
	bound := Options{Duration: time.Second}
	sc := Scenario{
		Pacer: Constant{Rate: 400},
		Flows: []Flow{
			{Name: "a", Target: counter(&a), Options: bound, Weight: 3},
			{Name: "b", Target: counter(&b), Options: bound, Weight: 1},
		},
	}
	res := runScenarioBounded(t, sc)
	if len(res.Flows) != 2 || res.Flows[0].Name != "a" || res.Flows[1].Name != "b" {
		t.Fatalf("flows %+v", res.Flows)
	}
	fa, fb := res.Flows[0], res.Flows[1]
	if fa.Calls != 300 || fb.Calls != 100 || a.Load() != 300 || b.Load() != 100 {
		t.Errorf("calls a=%d (%d made) b=%d (%d made), want 300 and 100", fa.Calls, a.Load(), fb.Calls, b.Load())
	}
	if fa.Offered != 300 || fb.Offered != 100 || res.Total.Offered != 400 {
		t.Errorf("offered %g %g total %g, want 300 100 400", fa.Offered, fb.Offered, res.Total.Offered)
	}
	if res.Total.Calls != 400 || res.Total.Corrected.Count() != 400 {
		t.Errorf("total calls %d (histogram %d), want 400", res.Total.Calls, res.Total.Corrected.Count())
	}
	if res.Total.CPU > 0 && fa.CPU+fb.CPU > res.Total.CPU+time.Microsecond {
		t.Errorf("flows' CPU %s + %s is more than the process's %s", fa.CPU, fb.CPU, res.Total.CPU)
	}
}

func TestScenarioExecutors(t *testing.T) {
	t.Parallel()
	var open, closed, ramp atomic.Int64
	sc := Scenario{Flows: []Flow{
		{Name: "open", Target: counter(&open), Options: Options{Pacer: Constant{Rate: 200}, Count: 50}},
		{Name: "closed", Target: sleeperCounting(&closed), Options: Options{Concurrency: 2, Count: 40}},
		{Name: "ramp", Target: counter(&ramp), Options: Options{Pacer: Steps{Rates: []float64{100, 200}, Step: 200 * time.Millisecond}}},
	}}
	res := runScenarioBounded(t, sc)
	want := []int64{50, 40, 20 + 40}
	for i, f := range res.Flows {
		if f.Calls != want[i] {
			t.Errorf("flow %s: %d calls, want %d", f.Name, f.Calls, want[i])
		}
	}
	if n := len(res.Flows[2].Steps); n != 2 {
		t.Errorf("ramp flow: %d steps, want 2", n)
	}
	if res.Total.Calls != 150 {
		t.Errorf("total %d calls, want 150", res.Total.Calls)
	}
}

func sleeperCounting(n *atomic.Int64) Target {
	return func(ctx context.Context) error {
		n.Add(1)
		return sleeper(time.Millisecond)(ctx)
	}
}

func TestScenarioOneFlowIsRun(t *testing.T) {
	t.Parallel()
	var n atomic.Int64
	res := runScenarioBounded(t, Scenario{Flows: []Flow{{Target: counter(&n), Options: Options{Count: 10}}}})
	if res.Total != res.Flows[0].Result || res.Total.Calls != 10 {
		t.Errorf("one flow: total %p calls %d, flow %p", res.Total, res.Total.Calls, res.Flows[0].Result)
	}
}

func TestScenarioProgress(t *testing.T) {
	t.Parallel()
	var n atomic.Int64
	var seen [2]atomic.Int64
	bound := Options{Pacer: Constant{Rate: 50}, Duration: 1200 * time.Millisecond}
	sc := Scenario{
		Flows: []Flow{{Name: "a", Target: counter(&n), Options: bound}, {Name: "b", Target: counter(&n), Options: bound}},
		Progress: func(flow int, p Progress) {
			seen[flow].Add(1)
		},
	}
	runScenarioBounded(t, sc)
	if seen[0].Load() == 0 || seen[1].Load() == 0 {
		t.Errorf("progress reports by flow: %d %d", seen[0].Load(), seen[1].Load())
	}
}

func TestScenarioErrors(t *testing.T) {
	t.Parallel()
	var n atomic.Int64
	f := func(name string, w float64, p Pacer) Flow {
		return Flow{Name: name, Target: counter(&n), Weight: w, Options: Options{Pacer: p, Count: 1}}
	}
	for _, tc := range []struct {
		sc   Scenario
		want string
	}{
		{Scenario{}, "no flows"},
		{Scenario{Flows: []Flow{f("a", 0, nil), f("a", 0, nil)}}, `two flows are named "a"`},
		{Scenario{Flows: []Flow{f("a", 1, nil)}}, "no pacer to share"},
		{Scenario{Pacer: Constant{Rate: 1}, Flows: []Flow{f("a", 1, Constant{Rate: 1})}}, "both a weight and a pacer"},
		{Scenario{Pacer: Constant{Rate: 1}, Flows: []Flow{f("a", -1, nil)}}, "not positive"},
		{Scenario{Flows: []Flow{{Name: "x", Options: Options{Count: 1}}}}, `flow "x": nil target`},
		{Scenario{Flows: []Flow{f("a", 0, nil), {Name: "b", Target: counter(&n), Options: Options{Count: -1}}}}, `flow "b": load: count -1`},
		{Scenario{Flows: []Flow{{Name: "c", Target: counter(&n), Options: Options{Callers: []Stage{{Target: 0, Length: time.Second}}}}}}, "above 0"},
	} {
		_, err := RunScenario(context.Background(), tc.sc)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.sc, err, tc.want)
		}
	}
	if n.Load() != 0 {
		t.Errorf("%d calls made by scenarios that could not run", n.Load())
	}
}

func TestSharePacer(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		p, want Pacer
	}{
		{Constant{Rate: 400}, Constant{Rate: 100}},
		{Linear{From: 40, To: 400, Over: time.Second}, Linear{From: 10, To: 100, Over: time.Second}},
	} {
		got, err := SharePacer(tc.p, 0.25)
		if err != nil || got != tc.want {
			t.Errorf("SharePacer(%v, 0.25) = %v, %v; want %v", tc.p, got, err, tc.want)
		}
	}
	got, err := SharePacer(Steps{Rates: []float64{40, 80}, Step: time.Second}, 0.25)
	if s, ok := got.(Steps); err != nil || !ok || s.Rates[0] != 10 || s.Rates[1] != 20 || s.Step != time.Second {
		t.Errorf("steps shared: %v, %v", got, err)
	}
	if _, err := SharePacer(Constant{Rate: 1}, 1.5); err == nil {
		t.Error("share 1.5 accepted")
	}
}
