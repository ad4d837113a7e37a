package load

import (
	"context"
	"sync"
	"testing"
	"time"
)

// A freezer is a target that stalls for 200 ms once a second, like a
// server in a GC pause: while it is frozen, every call waits for the thaw.
type freezer struct {
	t0     time.Time
	offset time.Duration // where in each second the freeze starts
	length time.Duration
}

func (f *freezer) call(ctx context.Context) error {
	in := time.Since(f.t0) % time.Second
	if in < f.offset || in >= f.offset+f.length {
		return nil
	}
	t := time.NewTimer(f.offset + f.length - in)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// TestCoordinatedOmission drives a freezing target at 1,000 calls/s for
// 5 s in open loop. A fifth of the calls are due during a freeze and wait
// up to 200 ms (100 ms on average), so the corrected latency must show a
// p90 near 100 ms and a mean near 20 ms, while most calls are fast.
func TestCoordinatedOmission(t *testing.T) {
	if testing.Short() {
		t.Skip("5 s run")
	}
	f := &freezer{t0: time.Now(), offset: 500 * time.Millisecond, length: 200 * time.Millisecond}
	var mu sync.Mutex
	var progress []Progress
	opts := Options{
		Pacer:    Constant{Rate: 1000},
		Duration: 5 * time.Second,
		Progress: func(p Progress) {
			mu.Lock()
			progress = append(progress, p)
			mu.Unlock()
		},
	}
	res, err := runBounded(t, context.Background(), opts, f.call)
	if err != nil {
		t.Fatal(err)
	}
	c, s := res.Corrected, res.Service
	t.Logf("calls %d not sent %d; corrected p50 %v p90 %v mean %v max %v; service p50 %v; max lag %v",
		res.Calls, res.NotSent, c.Percentile(50), c.Percentile(90), c.Mean(), c.Max(), s.Percentile(50), res.MaxLag)
	if res.Calls+res.NotSent+res.CutOff != 5000 {
		t.Errorf("calls %d + not sent %d + cut off %d, want 5000", res.Calls, res.NotSent, res.CutOff)
	}
	if p90 := c.Percentile(90); p90 < 80*time.Millisecond {
		t.Errorf("corrected p90 = %v, want >= 80ms", p90)
	}
	if mean := c.Mean(); mean < 15*time.Millisecond {
		t.Errorf("corrected mean = %v, want >= 15ms", mean)
	}
	if p50 := s.Percentile(50); p50 >= 40*time.Millisecond {
		t.Errorf("service p50 = %v, want low", p50)
	}
	checkSeries(t, res)
	mu.Lock()
	defer mu.Unlock()
	if len(progress) < 4 {
		t.Errorf("progress called %d times in 5 s", len(progress))
	}
}

// checkSeries checks the time series adds up to the totals.
func checkSeries(t *testing.T, res *Result) {
	t.Helper()
	if len(res.Series) < 5 || len(res.Series) > 7 {
		t.Fatalf("%d series points for 5 s", len(res.Series))
	}
	var calls int64
	for i, p := range res.Series {
		calls += p.Calls
		if i < 4 && (p.Length != time.Second || p.At != time.Duration(i)*time.Second) {
			t.Errorf("point %d at %v length %v", i, p.At, p.Length)
		}
		if i < 4 && p.Max < 100*time.Millisecond {
			t.Errorf("point %d: max %v misses the freeze", i, p.Max)
		}
	}
	if calls != res.Calls {
		t.Errorf("series holds %d calls, result %d", calls, res.Calls)
	}
}
