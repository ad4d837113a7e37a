package load

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseRate(t *testing.T) {
	step := 30 * time.Second
	tests := []struct {
		spec string
		step time.Duration
		want Pacer
		err  string
	}{
		{spec: "100", want: Constant{Rate: 100}},
		{spec: " 2.5 ", want: Constant{Rate: 2.5}},
		{spec: "50:400:+50", step: step, want: Steps{Rates: []float64{50, 100, 150, 200, 250, 300, 350, 400}, Step: step}},
		{spec: "50:420:+50", step: step, want: Steps{Rates: []float64{50, 100, 150, 200, 250, 300, 350, 400}, Step: step}},
		{spec: "10:10:+5", step: step, want: Steps{Rates: []float64{10}, Step: step}},
		{spec: "300:100:-100", step: step, want: Steps{Rates: []float64{300, 200, 100}, Step: step}},
		{spec: "0.1:0.3:+0.1", step: step, want: Steps{Rates: []float64{0.1, 0.2, 0.30000000000000004}, Step: step}},
		{spec: "", err: "is not a rate"},
		{spec: "0", err: "must be positive"},
		{spec: "-5", err: "is not a rate"},
		{spec: "abc", err: "is not a rate"},
		{spec: "NaN", err: "is not a rate"},
		{spec: "1:2", err: "want N or A:B:+S"},
		{spec: "50:400:+50", err: "positive step duration"},
		{spec: "50:400:50", step: step, err: "must be +S or -S"},
		{spec: "50:400:+0", step: step, err: "must not be zero"},
		{spec: "50:400:-50", step: step, err: "moves away"},
		{spec: "0:400:+50", step: step, err: "first step must be positive"},
		{spec: "1:1000000:+1", step: step, err: "more than"},
	}
	for _, tt := range tests {
		got, err := ParseRate(tt.spec, tt.step)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) || !strings.HasPrefix(err.Error(), "load: ") {
				t.Errorf("ParseRate(%q) error = %v, want one containing %q", tt.spec, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseRate(%q): %v", tt.spec, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseRate(%q) = %#v, want %#v", tt.spec, got, tt.want)
		}
	}
}

// TestNewStepsIsParseRate: the structured ramp is the spec's.
func TestNewStepsIsParseRate(t *testing.T) {
	for _, c := range []struct {
		from, to, by float64
		spec         string
	}{{50, 400, 50, "50:400:+50"}, {400, 50, -50, "400:50:-50"}, {1.5, 3, 0.5, "1.5:3:+0.5"}, {10, 10, 1, "10:10:+1"}} {
		want, err := ParseRate(c.spec, 2*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		got, err := NewSteps(c.from, c.to, c.by, 2*time.Second)
		if err != nil || !reflect.DeepEqual(Pacer(got), want) {
			t.Errorf("NewSteps(%g, %g, %g) = %+v, %v; ParseRate(%q) = %+v", c.from, c.to, c.by, got, err, c.spec, want)
		}
	}
	for _, c := range []struct {
		from, to, by float64
		step         time.Duration
		want         string
	}{
		{50, 400, 0, time.Second, `"50:400:+0": step must not be zero`},
		{50, 400, -50, time.Second, `step -50 moves away from 400`},
		{-5, 400, 50, time.Second, `must not be negative`},
		{math.NaN(), 400, 50, time.Second, `is not a rate`},
		{50, math.Inf(1), 50, time.Second, `is not a rate`},
		{0, 400, 50, time.Second, `the first step must be positive`},
		{50, 400, 50, 0, `steps need a positive step duration`},
		{1, 1e9, 1, time.Second, `more than 10000`},
	} {
		if _, err := NewSteps(c.from, c.to, c.by, c.step); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewSteps(%g, %g, %g, %s): %v, want %q", c.from, c.to, c.by, c.step, err, c.want)
		}
	}
}
