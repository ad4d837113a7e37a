package load

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// run calls Run under a watchdog, so a run that never stops fails the test
// instead of hanging it.
func runBounded(t *testing.T, ctx context.Context, opts Options, target Target) (*Result, error) {
	t.Helper()
	type out struct {
		res *Result
		err error
	}
	ch := make(chan out, 1)
	go func() {
		res, err := Run(ctx, opts, target)
		ch <- out{res, err}
	}()
	select {
	case o := <-ch:
		return o.res, o.err
	case <-time.After(30 * time.Second):
		t.Fatal("Run did not stop")
		return nil, nil
	}
}

func sleeper(d time.Duration) Target {
	return func(ctx context.Context) error {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func TestClosedLoopCount(t *testing.T) {
	t.Parallel()
	var n atomic.Int64
	errBoom := errors.New("boom")
	target := func(ctx context.Context) error {
		if n.Add(1)%4 == 0 {
			return errBoom
		}
		return sleeper(time.Millisecond)(ctx)
	}
	res, err := runBounded(t, context.Background(), Options{Concurrency: 4, Count: 200}, target)
	if err != nil {
		t.Fatal(err)
	}
	if res.Calls != 200 || n.Load() != 200 || res.Errors != 50 {
		t.Errorf("calls %d (target ran %d), errors %d; want 200, 200, 50", res.Calls, n.Load(), res.Errors)
	}
	if res.Codes["OK"] != 150 || res.Codes["boom"] != 50 || res.Messages["boom"] != 50 {
		t.Errorf("codes %v, messages %v", res.Codes, res.Messages)
	}
	if res.Corrected.Count() != 150 || !res.Corrected.Equal(res.Service) {
		t.Errorf("closed loop: %d successful calls timed, want 150, in equal corrected and service histograms", res.Corrected.Count())
	}
	if res.Duration <= 0 || res.Offered != 0 || res.Steps != nil {
		t.Errorf("duration %v, offered %v, steps %d", res.Duration, res.Offered, len(res.Steps))
	}
}

func TestClosedLoopDuration(t *testing.T) {
	t.Parallel()
	res, err := runBounded(t, context.Background(), Options{Concurrency: 2, Duration: 200 * time.Millisecond}, sleeper(5*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	if res.Calls == 0 || res.Calls > 2*200/5+2 || res.CutOff != 0 {
		t.Errorf("calls %d, cut off %d", res.Calls, res.CutOff)
	}
}

func TestOpenLoopBounds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		opts      Options
		calls     int64
		targetRan int64
		duration  time.Duration
	}{
		{"count", Options{Pacer: Constant{Rate: 500}, Count: 100}, 100, 100, 200 * time.Millisecond},
		{"duration", Options{Pacer: Constant{Rate: 200}, Duration: 300 * time.Millisecond}, 60, 60, 300 * time.Millisecond},
		{"warm-up", Options{Pacer: Constant{Rate: 100}, Warmup: 200 * time.Millisecond, Count: 10}, 10, 30, 100 * time.Millisecond},
		{"steps", Options{Pacer: Steps{Rates: []float64{100, 200}, Step: 200 * time.Millisecond}}, 60, 60, 400 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var n atomic.Int64
			target := func(ctx context.Context) error {
				n.Add(1)
				return nil
			}
			res, err := runBounded(t, context.Background(), tt.opts, target)
			if err != nil {
				t.Fatal(err)
			}
			if res.Calls != tt.calls || n.Load() != tt.targetRan || res.NotSent != 0 {
				t.Errorf("calls %d, target ran %d, not sent %d; want %d, %d, 0", res.Calls, n.Load(), res.NotSent, tt.calls, tt.targetRan)
			}
			if res.Duration != tt.duration {
				t.Errorf("duration %v, want %v", res.Duration, tt.duration)
			}
		})
	}
}

func TestOpenLoopSteps(t *testing.T) {
	t.Parallel()
	opts := Options{Pacer: Steps{Rates: []float64{100, 200}, Step: 200 * time.Millisecond}}
	res, err := runBounded(t, context.Background(), opts, sleeper(time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Steps) != 2 {
		t.Fatalf("%d steps, want 2", len(res.Steps))
	}
	for i, want := range []struct {
		rate  float64
		calls int64
	}{{100, 20}, {200, 40}} {
		st := res.Steps[i]
		if st.Offered != want.rate || st.Calls != want.calls || st.Corrected.Count() != want.calls {
			t.Errorf("step %d: offered %v calls %d; want %v, %d", i, st.Offered, st.Calls, want.rate, want.calls)
		}
		if st.Duration != 200*time.Millisecond || !st.Start.Equal(res.Start.Add(time.Duration(i)*200*time.Millisecond)) {
			t.Errorf("step %d: start %v duration %v", i, st.Start.Sub(res.Start), st.Duration)
		}
	}
	if res.Offered != 150 {
		t.Errorf("offered %v for a ramp, want its mean, 150", res.Offered)
	}
}

func TestOpenLoopNotSent(t *testing.T) {
	t.Parallel()
	block := func(ctx context.Context) error {
		<-ctx.Done()
		return ctx.Err()
	}
	// Five calls fill MaxInFlight and block until the run's end cuts them
	// off; the other 95 find no free slot.
	opts := Options{Pacer: Constant{Rate: 1000}, Count: 100, MaxInFlight: 5, Drain: 50 * time.Millisecond}
	res, err := runBounded(t, context.Background(), opts, block)
	if err != nil {
		t.Fatal(err)
	}
	if res.NotSent != 95 || res.CutOff != 5 || res.Calls != 0 || res.Errors != 0 {
		t.Errorf("not sent %d, cut off %d, calls %d, errors %d; want 95, 5, 0, 0", res.NotSent, res.CutOff, res.Calls, res.Errors)
	}
}

func TestCutOffAtEnd(t *testing.T) {
	t.Parallel()
	block := func(ctx context.Context) error {
		<-ctx.Done()
		return ctx.Err()
	}
	opts := Options{Pacer: Constant{Rate: 100}, Count: 5, Drain: 50 * time.Millisecond}
	res, err := runBounded(t, context.Background(), opts, block)
	if err != nil {
		t.Fatal(err)
	}
	// A dispatcher starved of CPU past the schedule's end counts the
	// calls it had not sent yet as not sent; every call is one or the other.
	if res.CutOff == 0 || res.CutOff+res.NotSent != 5 || res.Calls != 0 || res.Errors != 0 {
		t.Errorf("cut off %d, not sent %d, calls %d, errors %d; want 5 cut off or not sent, 0, 0",
			res.CutOff, res.NotSent, res.Calls, res.Errors)
	}
}

func TestCutOffIgnoringTarget(t *testing.T) {
	t.Parallel()
	stuck := make(chan struct{})
	defer close(stuck)
	var first atomic.Bool
	target := func(ctx context.Context) error {
		if first.CompareAndSwap(false, true) {
			<-stuck // the first call ignores ctx
		}
		return nil
	}
	opts := Options{Concurrency: 2, Count: 20, Duration: 100 * time.Millisecond, Drain: 20 * time.Millisecond}
	res, err := runBounded(t, context.Background(), opts, target)
	if err != nil {
		t.Fatal(err)
	}
	if res.CutOff != 1 || res.Calls == 0 {
		t.Errorf("cut off %d, calls %d; want 1 and some", res.CutOff, res.Calls)
	}
}

func TestCancel(t *testing.T) {
	t.Parallel()
	for _, opts := range []Options{
		{Pacer: Constant{Rate: 200}, Duration: time.Minute},
		{Concurrency: 3, Duration: time.Minute},
		{Pacer: Constant{Rate: 200}, Warmup: time.Minute},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(150*time.Millisecond, cancel)
		res, err := runBounded(t, ctx, opts, sleeper(20*time.Millisecond))
		if !errors.Is(err, context.Canceled) || res == nil {
			t.Fatalf("%+v: err %v, result %v; want context.Canceled and a result", opts, err, res)
		}
		if res.Errors != 0 || res.Duration >= time.Minute {
			t.Errorf("%+v: errors %d, duration %v", opts, res.Errors, res.Duration)
		}
		if opts.Warmup == 0 && res.Calls+res.CutOff == 0 {
			t.Errorf("%+v: no calls measured before cancel", opts)
		}
	}
}

func TestTimeoutIsAnError(t *testing.T) {
	t.Parallel()
	opts := Options{Concurrency: 2, Count: 6, Timeout: 5 * time.Millisecond}
	res, err := runBounded(t, context.Background(), opts, sleeper(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if res.Errors != 6 || res.Codes["DeadlineExceeded"] != 6 || res.CutOff != 0 {
		t.Errorf("errors %d, codes %v, cut off %d", res.Errors, res.Codes, res.CutOff)
	}
}

func TestRecorderExtra(t *testing.T) {
	t.Parallel()
	target := func(ctx context.Context) error {
		rec := RecorderFrom(ctx)
		for i := 1; i <= 3; i++ {
			rec.Record(time.Duration(i) * time.Millisecond)
		}
		return nil
	}
	opts := Options{Pacer: Constant{Rate: 200}, Warmup: 50 * time.Millisecond, Count: 20}
	res, err := runBounded(t, context.Background(), opts, target)
	if err != nil {
		t.Fatal(err)
	}
	if res.Extra.Count() != 60 || res.Extra.Max() < 3*time.Millisecond {
		t.Errorf("extra count %d max %v; want 60, 3ms", res.Extra.Count(), res.Extra.Max())
	}
	RecorderFrom(context.Background()).Record(time.Second) // nil Recorder: no-op
}

func TestOptionsErrors(t *testing.T) {
	t.Parallel()
	bad := []Options{
		{Concurrency: -1},
		{Count: -1},
		{Duration: -time.Second},
		{Pacer: Constant{}},
		{Pacer: Steps{Step: time.Second}},
	}
	for _, o := range bad {
		if _, err := Run(context.Background(), o, sleeper(0)); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
	if _, err := Run(context.Background(), Options{}, nil); err == nil {
		t.Error("nil target: no error")
	}
}

// The process's CPU time while measuring is in the Result, the series and
// the steps, and they agree.
func TestCPUTime(t *testing.T) {
	var sink atomic.Uint64
	spin := func(ctx context.Context) error {
		x := uint64(1)
		for i := range 200_000 {
			x = x*6364136223846793005 + uint64(i)
		}
		sink.Add(x)
		return nil
	}
	pacer, err := ParseRate("200:400:+200", 600*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	res, err := runBounded(t, context.Background(), Options{Pacer: pacer, Duration: 1200 * time.Millisecond}, spin)
	if err != nil {
		t.Fatal(err)
	}
	if res.CPU <= 0 || res.CPUPerCall() <= 0 {
		t.Fatalf("cpu %v, per call %v: want positive", res.CPU, res.CPUPerCall())
	}
	var series, steps time.Duration
	for _, p := range res.Series {
		series += p.CPU
	}
	for _, st := range res.Steps {
		steps += st.CPU
	}
	if series != res.CPU || steps > res.CPU || len(res.Steps) != 2 || res.Steps[0].CPU <= 0 {
		t.Errorf("cpu %v, series sum %v, steps sum %v over %d steps", res.CPU, series, steps, len(res.Steps))
	}
}

// Failed calls are counted and timed apart: never in the latency
// histograms nor in the rate, and the first one's text is kept.
func TestFailedCallsApart(t *testing.T) {
	t.Parallel()
	var n atomic.Int64
	target := func(ctx context.Context) error {
		if n.Add(1) > 30 {
			return errors.New("refused")
		}
		return sleeper(time.Millisecond)(ctx)
	}
	res, err := runBounded(t, context.Background(), Options{Concurrency: 1, Count: 40}, target)
	if err != nil {
		t.Fatal(err)
	}
	if res.Calls != 40 || res.Errors != 10 || res.Successes() != 30 {
		t.Errorf("calls %d, errors %d, successes %d; want 40, 10, 30", res.Calls, res.Errors, res.Successes())
	}
	if res.Corrected.Count() != 30 || res.Service.Count() != 30 || res.Failed.Count() != 10 {
		t.Errorf("histograms: corrected %d, service %d, failed %d; want 30, 30, 10",
			res.Corrected.Count(), res.Service.Count(), res.Failed.Count())
	}
	if want := float64(30) / res.Duration.Seconds(); res.Rate() != want {
		t.Errorf("rate %v, want the successes' %v", res.Rate(), want)
	}
	if res.FirstError != "refused" {
		t.Errorf("first error %q, want %q", res.FirstError, "refused")
	}
	var sum int64
	for _, p := range res.Series {
		sum += p.Calls - p.Errors
	}
	if sum != 30 {
		t.Errorf("series counts %d successful calls, want 30", sum)
	}
}

func TestAllCallsFailed(t *testing.T) {
	t.Parallel()
	target := func(ctx context.Context) error { return errors.New("connection refused") }
	res, err := runBounded(t, context.Background(), Options{Concurrency: 2, Count: 50}, target)
	if err != nil {
		t.Fatal(err)
	}
	if res.Calls != 50 || res.Errors != 50 || res.Rate() != 0 || res.Corrected.Count() != 0 || res.Failed.Count() != 50 {
		t.Errorf("calls %d, errors %d, rate %v, corrected %d, failed %d; want 50, 50, 0, 0, 50",
			res.Calls, res.Errors, res.Rate(), res.Corrected.Count(), res.Failed.Count())
	}
}

// A rate far beyond what the machine can send still ends with its
// schedule (plus the drain), and every call of the schedule is accounted
// for: made, not sent or cut off. It keeps the CPUs busy, so it runs
// alone, not in parallel with the other tests.
func TestOpenLoopRateBeyondReach(t *testing.T) {
	tests := []struct {
		name  string
		pacer Pacer
		d     time.Duration
		calls int64
	}{
		{"constant", Constant{Rate: 1e9}, 500 * time.Millisecond, 5e8},
		{"ramp", Steps{Rates: []float64{1e8, 2e8}, Step: 200 * time.Millisecond}, 0, 6e7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := Options{Pacer: tt.pacer, Duration: tt.d, Timeout: time.Second, MaxInFlight: 64}
			start := time.Now()
			res, err := runBounded(t, context.Background(), opts, func(ctx context.Context) error { return nil })
			if err != nil {
				t.Fatal(err)
			}
			// The schedule lasts 0.5 s at most and the drain 1 s (the timeout).
			if took := time.Since(start); took > 5*time.Second {
				t.Errorf("a run of %v took %v", res.Duration, took)
			}
			if got := res.Calls + res.NotSent + res.CutOff; got != tt.calls {
				t.Errorf("calls %d + not sent %d + cut off %d = %d, want the schedule's %d",
					res.Calls, res.NotSent, res.CutOff, got, tt.calls)
			}
			var steps int64
			for _, st := range res.Steps {
				steps += st.Calls + st.NotSent
			}
			if len(res.Steps) > 0 && steps+res.CutOff != tt.calls {
				t.Errorf("steps account for %d calls, want %d", steps+res.CutOff, tt.calls)
			}
		})
	}
}
