package load

import (
	"testing"
	"time"
)

func TestPacerAt(t *testing.T) {
	type slot struct {
		i  int64
		at time.Duration
		ok bool
	}
	ms := time.Millisecond
	tests := []struct {
		name  string
		pacer Pacer
		slots []slot
	}{
		{"constant", Constant{Rate: 100}, []slot{
			{0, 0, true}, {1, 10 * ms, true}, {250, 2500 * ms, true}, {-1, 0, false},
		}},
		{"constant fractional", Constant{Rate: 0.5}, []slot{
			{0, 0, true}, {1, 2 * time.Second, true}, {3, 6 * time.Second, true},
		}},
		{"constant zero rate", Constant{}, []slot{{0, 0, false}}},
		{"steps", Steps{Rates: []float64{10, 20}, Step: time.Second}, []slot{
			{0, 0, true}, {9, 900 * ms, true},
			{10, time.Second, true}, {11, 1050 * ms, true}, {29, 1950 * ms, true},
			{30, 0, false},
		}},
		{"steps fractional count", Steps{Rates: []float64{0.1, 3}, Step: 10 * time.Second}, []slot{
			{0, 0, true}, {1, 10 * time.Second, true}, {30, 19*time.Second + 666666666, true}, {31, 0, false},
		}},
		{"linear flat", Linear{From: 10, To: 10, Over: time.Second}, []slot{
			{0, 0, true}, {5, 500 * ms, true}, {9, 900 * ms, true}, {10, 0, false},
		}},
		// From 0 to 20/s over 1 s: 10 calls, call i at sqrt(i/10) s.
		{"linear ramp", Linear{From: 0, To: 20, Over: time.Second}, []slot{
			{0, 0, true}, {1, 316227766, true}, {4, 632455532, true}, {9, 948683298, true}, {10, 0, false},
		}},
		{"linear down", Linear{From: 20, To: 0, Over: time.Second}, []slot{
			{0, 0, true}, {1, 51316701, true}, {9, 683772233, true}, {10, 0, false},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, s := range tt.slots {
				at, ok := tt.pacer.At(s.i)
				if ok != s.ok || (ok && !near(at, s.at)) {
					t.Errorf("At(%d) = %v, %v; want %v, %v", s.i, at, ok, s.at, s.ok)
				}
			}
		})
	}
}

// near allows for float rounding in offsets.
func near(a, b time.Duration) bool {
	d := a - b
	return d < 2 && d > -2
}

func TestPacerMonotonic(t *testing.T) {
	pacers := []Pacer{
		Constant{Rate: 333},
		Steps{Rates: []float64{7, 50, 3}, Step: 2 * time.Second},
		Linear{From: 5, To: 100, Over: 3 * time.Second},
		Linear{From: 100, To: 5, Over: 3 * time.Second},
	}
	for _, p := range pacers {
		prev := time.Duration(-1)
		for i := int64(0); i < 1000; i++ {
			at, ok := p.At(i)
			if !ok {
				break
			}
			if at < prev {
				t.Fatalf("%#v: At(%d) = %v before At(%d) = %v", p, i, at, i-1, prev)
			}
			prev = at
		}
	}
}

func TestPacerCounts(t *testing.T) {
	tests := []struct {
		pacer Pacer
		want  int64
	}{
		{Steps{Rates: []float64{50, 100, 150}, Step: 2 * time.Second}, 600},
		{Linear{From: 10, To: 30, Over: 2 * time.Second}, 40},
		{Linear{From: 0, To: 0, Over: time.Second}, 0},
	}
	for _, tt := range tests {
		var n int64
		for n < 10000 {
			if _, ok := tt.pacer.At(n); !ok {
				break
			}
			n++
		}
		if n != tt.want {
			t.Errorf("%#v makes %d calls, want %d", tt.pacer, n, tt.want)
		}
	}
}

func TestPhases(t *testing.T) {
	got := Steps{Rates: []float64{5, 10}, Step: time.Second}.Phases()
	want := []Phase{{Rate: 5, Length: time.Second}, {Rate: 10, Start: time.Second, Length: time.Second}}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("Phases = %+v, want %+v", got, want)
	}
	if got := (Constant{Rate: 3}).Phases(); len(got) != 1 || got[0].End() != 0 {
		t.Errorf("Constant phases = %+v, want one open-ended phase", got)
	}
	if got := phaseAt(want, 1500*time.Millisecond); got != 1 {
		t.Errorf("phaseAt(1.5s) = %d, want 1", got)
	}
	if got := phaseAt(want, 0); got != 0 {
		t.Errorf("phaseAt(0) = %d, want 0", got)
	}
}
