package load

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"
)

// Defaults for the zero Options.
const (
	DefaultConcurrency = 1
	DefaultMaxInFlight = 10000
	DefaultDuration    = 10 * time.Second
	DefaultDrain       = 5 * time.Second
)

// Options configure a run. The zero value is a closed-loop run of one
// worker for DefaultDuration.
type Options struct {
	// Pacer makes the run open loop: each call starts at the time the
	// pacer gives. Nil runs closed loop.
	Pacer Pacer
	// Concurrency is the number of closed-loop workers, each with one call
	// in flight (default 1). Open loop ignores it.
	Concurrency int
	// Callers, when set, ramps a closed loop's callers in stages instead of
	// Concurrency: each stage moves them evenly to its Target over its
	// Length (from 0 before the first). Warm-up runs the first stage's
	// Target callers. The measured run lasts the stages, or Duration if
	// that is shorter. Open loop refuses it.
	Callers []Stage
	// MaxInFlight caps the calls in flight in open loop (default
	// DefaultMaxInFlight). A call due while the cap is reached is not sent
	// and is counted in Result.NotSent.
	MaxInFlight int
	// Count bounds the measured calls (after warm-up); 0 for no bound.
	Count int64
	// Duration bounds the measured time (after warm-up); 0 for no bound.
	// With neither Count nor Duration, and a pacer that does not end by
	// itself, the run lasts DefaultDuration.
	Duration time.Duration
	// Warmup is a period before measuring: calls are made, at the pacer's
	// first rate in open loop, and not counted.
	Warmup time.Duration
	// Timeout is a deadline for each call; 0 for none.
	Timeout time.Duration
	// Drain is how long to wait for calls in flight once the schedule ends
	// (default DefaultDrain, or Timeout if that is shorter). Calls still
	// running then are cancelled and counted in Result.CutOff, not as
	// errors.
	Drain time.Duration
	// Code maps a call's error to the label errors are counted by, such as
	// "OK", "UNAVAILABLE" or "HTTP 503". Default: DefaultCode.
	Code func(error) string
	// Progress, if set, is called about once a second from one goroutine
	// while the run goes on. It should return quickly.
	Progress func(Progress)
}

// DefaultCode labels nil "OK", a deadline "DeadlineExceeded", a
// cancellation "Canceled", and any other error by its text.
func DefaultCode(err error) string {
	switch {
	case err == nil:
		return "OK"
	case errors.Is(err, context.DeadlineExceeded):
		return "DeadlineExceeded"
	case errors.Is(err, context.Canceled):
		return "Canceled"
	}
	return err.Error()
}

// withDefaults fills the zero fields and checks the rest.
func (o Options) withDefaults() (Options, error) {
	if o.Concurrency == 0 {
		o.Concurrency = DefaultConcurrency
	}
	if o.MaxInFlight == 0 {
		o.MaxInFlight = DefaultMaxInFlight
	}
	if o.Drain == 0 {
		o.Drain = DefaultDrain
		if o.Timeout > 0 {
			o.Drain = min(o.Drain, o.Timeout)
		}
	}
	if o.Code == nil {
		o.Code = DefaultCode
	}
	if err := o.check(); err != nil {
		return o, err
	}
	if n := stagesLength(o.Callers); n > 0 && (o.Duration == 0 || n < o.Duration) {
		o.Duration = n
	}
	if o.Count == 0 && o.Duration == 0 && !o.pacerEnds() {
		o.Duration = DefaultDuration
	}
	return o, nil
}

func (o Options) check() error {
	switch {
	case o.Concurrency < 0:
		return fmt.Errorf("load: concurrency %d is negative", o.Concurrency)
	case o.MaxInFlight < 0:
		return fmt.Errorf("load: max in flight %d is negative", o.MaxInFlight)
	case o.Count < 0:
		return fmt.Errorf("load: count %d is negative", o.Count)
	case o.Duration < 0 || o.Warmup < 0 || o.Timeout < 0 || o.Drain < 0:
		return errors.New("load: durations must not be negative")
	}
	if len(o.Callers) > 0 && o.Pacer != nil {
		return errors.New("load: a ramp of callers is closed loop; it takes no pacer")
	}
	if err := checkStages(o.Callers); err != nil {
		return err
	}
	return o.checkPacer()
}

func (o Options) checkPacer() error {
	if o.Pacer == nil {
		return nil
	}
	phases := o.Pacer.Phases()
	if len(phases) == 0 {
		return errors.New("load: pacer has no phases")
	}
	for _, p := range phases {
		if !(p.Rate > 0) {
			return fmt.Errorf("load: pacer rate %g is not positive", p.Rate)
		}
	}
	return nil
}

// pacerEnds reports whether the schedule ends by itself.
func (o Options) pacerEnds() bool {
	if o.Pacer == nil {
		return false
	}
	phases := o.Pacer.Phases()
	return phases[len(phases)-1].Length > 0
}

// shards is how many recorder shards the run uses: enough that workers on
// different CPUs rarely share one, few enough to bound memory.
func (o Options) shards() int {
	n := min(runtime.GOMAXPROCS(0), 16)
	if o.Pacer == nil {
		n = min(n, o.callers())
	}
	return max(n, 1)
}

// callers is how many closed-loop workers the run starts.
func (o Options) callers() int {
	if len(o.Callers) > 0 {
		return MaxCallers(o.Callers)
	}
	return o.Concurrency
}
