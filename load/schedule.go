package load

import (
	"math"
	"sort"
	"time"
)

// A schedule is a Pacer with a run's warm-up and bounds applied. It is pure:
// slot(i) says where call i of the whole run falls.
//
// Warm-up comes first, at the rate of the pacer's first phase; its calls are
// made but not measured. The pacer's own schedule starts when warm-up ends,
// and Count and Duration bound that measured part.
type schedule struct {
	pacer     Pacer
	phases    []Phase
	warmup    time.Duration
	warmRate  float64
	warmCalls int64
	count     int64         // measured calls, 0 for no bound
	duration  time.Duration // measured time, 0 for no bound
}

func newSchedule(p Pacer, warmup time.Duration, count int64, duration time.Duration) *schedule {
	s := &schedule{pacer: p, phases: p.Phases(), warmup: warmup, count: count, duration: duration}
	if len(s.phases) > 0 {
		s.warmRate = s.phases[0].Rate
	}
	s.warmCalls = callsIn(s.warmRate, warmup)
	return s
}

// slot returns call i's intended start as an offset from the start of the
// run, whether it is measured (after warm-up), and false past the end.
func (s *schedule) slot(i int64) (at time.Duration, measured, ok bool) {
	if i < s.warmCalls {
		return offset(i, s.warmRate), false, true
	}
	j := i - s.warmCalls
	if s.count > 0 && j >= s.count {
		return 0, false, false
	}
	at, ok = s.pacer.At(j)
	if !ok || (s.duration > 0 && at >= s.duration) {
		return 0, false, false
	}
	return s.warmup + at, true, true
}

// search returns the first call from i on whose intended start (from the
// start of the run) is at or past at, or the index past the schedule's last
// call: an exponential then a binary search, as slot offsets never
// decrease.
func (s *schedule) search(i int64, at time.Duration) int64 {
	past := func(k int64) bool {
		off, _, ok := s.slot(k)
		return !ok || off >= at
	}
	if past(i) {
		return i
	}
	lo, hi := i, i+1 // past(lo) is false
	for step := int64(1); !past(hi); hi = i + step {
		lo = hi
		if step > math.MaxInt64/4 {
			return math.MaxInt64
		}
		step *= 2
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if past(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// end is the length of the measured schedule: the first of the duration
// bound, the time of the call after the count bound, and the end of the
// pacer's last phase. It is 0 when nothing bounds the schedule.
func (s *schedule) end() time.Duration {
	var end time.Duration
	shorten := func(d time.Duration) {
		if d > 0 && (end == 0 || d < end) {
			end = d
		}
	}
	shorten(s.duration)
	if s.count > 0 {
		if at, ok := s.pacer.At(s.count); ok {
			shorten(at)
		}
	}
	if n := len(s.phases); n > 0 {
		shorten(s.phases[n-1].End())
	}
	return end
}

// phaseAt is the index of the phase holding measured offset at.
func phaseAt(phases []Phase, at time.Duration) int {
	i := sort.Search(len(phases), func(i int) bool { return phases[i].Start > at })
	return max(i-1, 0)
}
