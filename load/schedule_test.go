package load

import (
	"testing"
	"time"
)

func TestScheduleSlots(t *testing.T) {
	type slot struct {
		i        int64
		at       time.Duration
		measured bool
		ok       bool
	}
	ms := time.Millisecond
	tests := []struct {
		name  string
		sched *schedule
		slots []slot
		end   time.Duration
	}{
		{"count bound", newSchedule(Constant{Rate: 10}, 0, 3, 0), []slot{
			{0, 0, true, true}, {2, 200 * ms, true, true}, {3, 0, false, false},
		}, 300 * ms},
		{"duration bound", newSchedule(Constant{Rate: 10}, 0, 0, time.Second), []slot{
			{9, 900 * ms, true, true}, {10, 0, false, false},
		}, time.Second},
		{"count before duration", newSchedule(Constant{Rate: 10}, 0, 5, time.Second), []slot{
			{4, 400 * ms, true, true}, {5, 0, false, false},
		}, 500 * ms},
		// Warm-up of 1 s at 10/s: calls 0-9 unmeasured, then the pacer
		// from offset 1 s.
		{"warm-up", newSchedule(Constant{Rate: 10}, time.Second, 2, 0), []slot{
			{0, 0, false, true}, {9, 900 * ms, false, true},
			{10, time.Second, true, true}, {11, 1100 * ms, true, true}, {12, 0, false, false},
		}, 200 * ms},
		{"warm-up at first step rate", newSchedule(Steps{Rates: []float64{4, 8}, Step: time.Second}, 500*ms, 0, 0), []slot{
			{0, 0, false, true}, {1, 250 * ms, false, true},
			{2, 500 * ms, true, true}, {6, 1500 * ms, true, true}, {7, 1625 * ms, true, true},
			{13, 2375 * ms, true, true}, {14, 0, false, false},
		}, 2 * time.Second},
		{"steps cut by duration", newSchedule(Steps{Rates: []float64{4, 8}, Step: time.Second}, 0, 0, 1500*ms), []slot{
			{8, 0, false, false}, {7, 1375 * ms, true, true},
		}, 1500 * ms},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, s := range tt.slots {
				at, measured, ok := tt.sched.slot(s.i)
				if ok != s.ok || measured != s.measured || (ok && !near(at, s.at)) {
					t.Errorf("slot(%d) = %v, %v, %v; want %v, %v, %v", s.i, at, measured, ok, s.at, s.measured, s.ok)
				}
			}
			if got := tt.sched.end(); !near(got, tt.end) {
				t.Errorf("end() = %v, want %v", got, tt.end)
			}
		})
	}
}

// search finds what a walk over the slots finds.
func TestScheduleSearch(t *testing.T) {
	scheds := []*schedule{
		newSchedule(Constant{Rate: 10}, 0, 0, time.Second),
		newSchedule(Constant{Rate: 10}, 300*time.Millisecond, 7, 0),
		newSchedule(Steps{Rates: []float64{10, 30, 20}, Step: 500 * time.Millisecond}, 200*time.Millisecond, 0, 0),
	}
	for n, s := range scheds {
		for at := time.Duration(0); at < 2*time.Second; at += 37 * time.Millisecond {
			for from := int64(0); from < 5; from++ {
				want := from
				for {
					off, _, ok := s.slot(want)
					if !ok || off >= at {
						break
					}
					want++
				}
				if got := s.search(from, at); got != want {
					t.Errorf("schedule %d: search(%d, %v) = %d, want %d", n, from, at, got, want)
				}
			}
		}
	}
}
