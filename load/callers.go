package load

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// A Stage is one part of a closed loop's ramp of callers: over Length, the
// callers in flight move evenly from the previous stage's Target (0 before
// the first) to this one's.
type Stage struct {
	Target int
	Length time.Duration
}

// maxCallers bounds the callers a ramp may reach.
const maxCallers = 100000

func checkStages(stages []Stage) error {
	if err := stagesError(stages); err != nil {
		return fmt.Errorf("load: %w", err)
	}
	return nil
}

func stagesError(stages []Stage) error {
	if len(stages) > 0 && MaxCallers(stages) == 0 {
		return errors.New("a ramp of callers needs a stage above 0")
	}
	for _, s := range stages {
		switch {
		case s.Target < 0 || s.Target > maxCallers:
			return fmt.Errorf("%d callers: want 0 to %d", s.Target, maxCallers)
		case s.Length <= 0:
			return errors.New("each stage of callers needs a positive length")
		}
	}
	return nil
}

// stagesLength is how long the stages last together.
func stagesLength(stages []Stage) time.Duration {
	var d time.Duration
	for _, s := range stages {
		d += s.Length
	}
	return d
}

// MaxCallers is the most callers stages ever have in flight.
func MaxCallers(stages []Stage) int {
	n := 0
	for _, s := range stages {
		n = max(n, s.Target)
	}
	return n
}

// nextActive is the first offset from at (at least 0) at which caller id
// (from 0) is active, callersAt above id; false when no stage from there
// on has it.
func nextActive(stages []Stage, id int, at time.Duration) (time.Duration, bool) {
	at = max(at, 0)
	prev, start := 0, time.Duration(0)
	for _, s := range stages {
		if from, to, ok := activeIn(prev, s, start, id+1); ok && to > at {
			return max(from, at), true
		}
		prev, start = s.Target, start+s.Length
	}
	return 0, false
}

// activeIn is the span [from, to) of a stage starting at start, from prev
// callers, during which it has need of them or more; false if none.
func activeIn(prev int, s Stage, start time.Duration, need int) (from, to time.Duration, ok bool) {
	end := start + s.Length
	span := float64(s.Length)
	switch {
	case prev >= need && s.Target >= need:
		return start, end, true
	case prev >= need: // falling below need
		x := float64(prev-need) / float64(prev-s.Target) * span
		return start, min(start+time.Duration(x)+1, end), true
	case s.Target >= need: // rising past need
		x := float64(need-prev) / float64(s.Target-prev) * span
		return min(start+time.Duration(math.Ceil(x)), end), end, true
	}
	return 0, 0, false
}

// awaitTurn holds closed-loop caller id while the ramp of callers has it
// idle, from now; false when the ramp has no more turns for it or the run
// is ending. During warm-up the first stage's Target callers call.
func (r *run) awaitTurn(id int, now time.Time) bool {
	stages := r.opts.Callers
	if len(stages) == 0 {
		return true
	}
	t := time.NewTimer(time.Hour)
	defer t.Stop()
	for {
		at := now.Sub(r.measureStart)
		if at < 0 && id < stages[0].Target {
			return true
		}
		next, ok := nextActive(stages, id, at)
		if !ok {
			return false
		}
		if next <= at {
			return true
		}
		if !sleepUntil(r.callCtx, t, r.measureStart.Add(next)) {
			return false
		}
		now = r.now()
	}
}

// ParseStages reads a ramp of callers as the --callers flag takes it:
// comma-separated TARGET:LENGTH stages, such as "10:30s,50:1m,0:10s"
// (up to 10 callers over 30s, up to 50 over a minute, down to none over
// 10s).
func ParseStages(spec string) ([]Stage, error) {
	var stages []Stage
	for part := range strings.SplitSeq(spec, ",") {
		n, d, ok := strings.Cut(strings.TrimSpace(part), ":")
		target, err := strconv.Atoi(strings.TrimSpace(n))
		if !ok || err != nil {
			return nil, fmt.Errorf("load: callers %q: stage %q: want TARGET:LENGTH such as 10:30s", spec, part)
		}
		length, err := time.ParseDuration(strings.TrimSpace(d))
		if err != nil {
			return nil, fmt.Errorf("load: callers %q: stage %q: %w", spec, part, err)
		}
		stages = append(stages, Stage{Target: target, Length: length})
	}
	if err := stagesError(stages); err != nil {
		return nil, fmt.Errorf("load: callers %q: %w", spec, err)
	}
	return stages, nil
}
