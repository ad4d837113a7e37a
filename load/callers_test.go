package load

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestNextActive(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	// 0 -> 4 over 400ms, 4 for 100ms, 4 -> 0 over 400ms.
	stages := []Stage{{4, 400 * ms}, {4, 100 * ms}, {0, 400 * ms}}
	for _, tc := range []struct {
		id   int
		at   time.Duration
		want time.Duration
		ok   bool
	}{
		{0, 0, 100 * ms, true}, // caller 0 once the ramp reaches 1
		{3, 0, 400 * ms, true}, // caller 3 once it reaches 4
		{1, 250 * ms, 250 * ms, true},
		{3, 450 * ms, 450 * ms, true}, // the flat stage
		{3, 600 * ms, 0, false},       // past the fall below 4
		{0, 700 * ms, 700 * ms, true}, // still at least 1
		{0, 900 * ms, 0, false},       // after the end
		{4, 0, 0, false},              // never 5 callers
	} {
		got, ok := nextActive(stages, tc.id, tc.at)
		if got != tc.want || ok != tc.ok {
			t.Errorf("nextActive(%d, %s) = %s, %v; want %s, %v", tc.id, tc.at, got, ok, tc.want, tc.ok)
		}
	}
}

func TestCallersRamp(t *testing.T) {
	t.Parallel()
	var inFlight, most, calls atomic.Int64
	var early atomic.Int64 // calls begun while more than 2 callers were due
	start := time.Now()
	target := func(ctx context.Context) error {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		if n > 2 && time.Since(start) < 150*time.Millisecond {
			early.Add(1)
		}
		calls.Add(1)
		return sleeper(2 * time.Millisecond)(ctx)
	}
	opts := Options{Callers: []Stage{{Target: 4, Length: 400 * time.Millisecond}, {Target: 4, Length: 200 * time.Millisecond}}}
	res, err := runBounded(t, context.Background(), opts, target)
	if err != nil {
		t.Fatal(err)
	}
	if most.Load() != 4 {
		t.Errorf("at most %d callers in flight, want 4", most.Load())
	}
	if early.Load() > 0 {
		t.Errorf("%d calls with more than 2 callers in the ramp's first 150ms", early.Load())
	}
	// The stages bound the run: 600ms, and the last calls' ends.
	if res.Duration < 550*time.Millisecond || res.Duration > 600*time.Millisecond+DefaultDrain || res.Calls != calls.Load() {
		t.Errorf("ran %s with %d calls (%d made), want the stages' 600ms", res.Duration, res.Calls, calls.Load())
	}
}

func TestParseStages(t *testing.T) {
	t.Parallel()
	got, err := ParseStages("10:30s, 50:1m,0:10s")
	want := []Stage{{10, 30 * time.Second}, {50, time.Minute}, {0, 10 * time.Second}}
	if err != nil || len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("ParseStages = %v, %v; want %v", got, err, want)
	}
	if MaxCallers(got) != 50 {
		t.Errorf("MaxCallers = %d, want 50", MaxCallers(got))
	}
	for spec, msg := range map[string]string{
		"10":         `stage "10": want TARGET:LENGTH`,
		"x:1s":       `stage "x:1s": want TARGET:LENGTH`,
		"3:soon":     `stage "3:soon": time: invalid duration`,
		"0:1s":       "needs a stage above 0",
		"-1:1s,2:1s": "-1 callers: want 0 to 100000",
		"3:0s":       "positive length",
	} {
		if _, err := ParseStages(spec); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("ParseStages(%q): %v, want %q", spec, err, msg)
		}
	}
}
