package load

import (
	"context"
	"testing"
	"time"
)

// placeProgress says which step the present is in, its offered rate, and
// the time left in the step and the run, as the bounds set them.
func TestPlaceProgress(t *testing.T) {
	s := time.Second
	steps := Steps{Rates: []float64{10, 20, 30}, Step: 2 * s}
	tests := []struct {
		name string
		opts Options
		from time.Duration // the interval's start
		at   time.Duration
		want Progress
	}{
		{"first step", Options{Pacer: steps}, 0, s / 2,
			Progress{Step: 0, Steps: 3, Offered: 10, StepLeft: 1500 * time.Millisecond, RunLeft: 5500 * time.Millisecond}},
		{"middle step", Options{Pacer: steps}, 2 * s, 3 * s,
			Progress{Step: 1, Steps: 3, Offered: 20, StepLeft: s, RunLeft: 3 * s}},
		{"duration cuts the last step", Options{Pacer: steps, Duration: 5 * s}, 4 * s, 4500 * time.Millisecond,
			Progress{Step: 2, Steps: 3, Offered: 30, StepLeft: s / 2, RunLeft: s / 2}},
		// At the end of a step the interval just ended is still in it.
		{"end of a step", Options{Pacer: steps}, s, 2 * s,
			Progress{Step: 0, Steps: 3, Offered: 10, StepLeft: 0, RunLeft: 4 * s}},
		{"past the end", Options{Pacer: steps}, 6 * s, 7 * s,
			Progress{Step: 2, Steps: 3, Offered: 30}},
		{"constant, count bound", Options{Pacer: Constant{Rate: 50}, Count: 1000}, 0, s,
			Progress{Step: 0, Steps: 1, Offered: 50, StepLeft: 19 * s, RunLeft: 19 * s}},
		{"constant, no bound", Options{Pacer: Constant{Rate: 50}}, 0, s,
			Progress{Step: 0, Steps: 1, Offered: 50}},
		{"closed loop", Options{Duration: 10 * s}, 3 * s, 4 * s,
			Progress{Step: 0, Steps: 1, StepLeft: 6 * s, RunLeft: 6 * s}},
		{"closed loop, count bound", Options{Count: 10}, 3 * s, 4 * s,
			Progress{Step: 0, Steps: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRun(context.Background(), tt.opts, nil)
			defer r.cutCalls()
			var got Progress
			r.placeProgress(&got, tt.from, tt.at)
			if got.Step != tt.want.Step || got.Steps != tt.want.Steps || got.Offered != tt.want.Offered ||
				!near(got.StepLeft, tt.want.StepLeft) || !near(got.RunLeft, tt.want.RunLeft) {
				t.Errorf("at %v: step %d/%d offered %g left %v/%v; want step %d/%d offered %g left %v/%v",
					tt.at, got.Step, got.Steps, got.Offered, got.StepLeft, got.RunLeft,
					tt.want.Step, tt.want.Steps, tt.want.Offered, tt.want.StepLeft, tt.want.RunLeft)
			}
		})
	}
}
