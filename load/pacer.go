package load

import (
	"math"
	"time"
)

// A Pacer is an open-loop schedule: when each call should start. Pacers are
// pure functions of the call index, so a schedule can be checked without
// running it.
type Pacer interface {
	// At returns the intended start of call i (counting from 0) as an offset
	// from the start of the schedule, and false when the schedule has no
	// call i. Offsets do not decrease as i grows.
	At(i int64) (time.Duration, bool)
	// Phases lists the parts of the schedule in order, one per rate step;
	// Results report each phase on its own when there are several.
	Phases() []Phase
}

// A Phase is a part of a schedule with one offered rate.
type Phase struct {
	Rate   float64       // offered calls per second (the mean for a ramp)
	Start  time.Duration // offset from the start of the schedule
	Length time.Duration // 0 for a phase that lasts until the run's bounds
}

// End is the offset at which the phase ends, or 0 if it is open-ended.
func (p Phase) End() time.Duration {
	if p.Length == 0 {
		return 0
	}
	return p.Start + p.Length
}

// Constant paces calls at a fixed rate until the run's bounds stop it.
type Constant struct {
	Rate float64 // calls per second; a rate of 0 or less makes no calls
}

// At returns i/Rate seconds.
func (c Constant) At(i int64) (time.Duration, bool) {
	if !(c.Rate > 0) || i < 0 {
		return 0, false
	}
	return offset(i, c.Rate), true
}

// Phases returns one open-ended phase.
func (c Constant) Phases() []Phase {
	return []Phase{{Rate: c.Rate}}
}

// offset is the time of the i-th call at rate calls per second.
func offset(i int64, rate float64) time.Duration {
	ns := float64(i) / rate * float64(time.Second)
	if ns >= math.MaxInt64 { // a tiny rate: later than any run lasts
		return math.MaxInt64
	}
	return time.Duration(ns)
}

// callsIn is how many calls a rate makes in d: those at k/rate < d.
func callsIn(rate float64, d time.Duration) int64 {
	if !(rate > 0) || d <= 0 {
		return 0
	}
	// The small slack keeps 0.1/s over 10 s at one call, not two.
	return int64(math.Ceil(rate*d.Seconds() - 1e-9))
}

// Steps paces calls at each of Rates in turn, each for Step; the schedule
// ends after the last step. It is the pacer of the rate spec "A:B:+S".
type Steps struct {
	Rates []float64     // calls per second of each step
	Step  time.Duration // how long each step lasts
}

// At finds the step holding call i and its offset in that step.
func (s Steps) At(i int64) (time.Duration, bool) {
	if i < 0 {
		return 0, false
	}
	for k, r := range s.Rates {
		n := callsIn(r, s.Step)
		if i < n {
			return time.Duration(k)*s.Step + offset(i, r), true
		}
		i -= n
	}
	return 0, false
}

// Phases returns one phase per step.
func (s Steps) Phases() []Phase {
	out := make([]Phase, len(s.Rates))
	for k, r := range s.Rates {
		out[k] = Phase{Rate: r, Start: time.Duration(k) * s.Step, Length: s.Step}
	}
	return out
}

// Linear ramps the rate evenly from From to To over Over; the schedule ends
// there.
type Linear struct {
	From, To float64 // calls per second at the start and at the end
	Over     time.Duration
}

// At solves From*t + (To-From)*t²/(2*Over) = i for t, the time by which
// the ramp has offered i calls.
func (l Linear) At(i int64) (time.Duration, bool) {
	if i < 0 || l.Over <= 0 || l.From < 0 || l.To < 0 {
		return 0, false
	}
	if i == 0 {
		return 0, l.From+l.To > 0
	}
	a := (l.To - l.From) / l.Over.Seconds()
	disc := l.From*l.From + 2*a*float64(i)
	if disc < 0 {
		return 0, false
	}
	// 2i / (From + sqrt(disc)) is the stable root, also for a == 0.
	den := l.From + math.Sqrt(disc)
	if !(den > 0) {
		return 0, false
	}
	t := time.Duration(2 * float64(i) / den * float64(time.Second))
	return t, t < l.Over
}

// Phases returns one phase at the mean rate.
func (l Linear) Phases() []Phase {
	return []Phase{{Rate: (l.From + l.To) / 2, Length: l.Over}}
}
