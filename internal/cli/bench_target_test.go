package cli

import (
	"slices"
	"testing"
	"time"

	"github.com/rpckit/rpckit/load"
)

// TestScenarioMarks: the scraper is told when measuring starts and when
// each step of a flow's ramp, or of the rate it shares, begins and ends.
func TestScenarioMarks(t *testing.T) {
	s := time.Second
	sc := load.Scenario{
		Pacer: load.Steps{Rates: []float64{10, 20}, Step: 2 * s},
		Flows: []load.Flow{
			{Name: "ramp", Options: load.Options{Warmup: s, Pacer: load.Steps{Rates: []float64{1, 2, 3}, Step: 3 * s}}},
			{Name: "share", Weight: 1, Options: load.Options{Duration: 4 * s}},
			{Name: "callers", Options: load.Options{Warmup: 500 * time.Millisecond,
				Callers: []load.Stage{{Target: 2, Length: s}, {Target: 4, Length: s}}}},
		},
	}
	want := []time.Duration{0, 500 * time.Millisecond, s, 1500 * time.Millisecond, 2 * s, 2500 * time.Millisecond, 4 * s, 7 * s, 10 * s}
	if got := scenarioMarks(sc); !slices.Equal(got, want) {
		t.Errorf("marks = %v, want %v", got, want)
	}
}
