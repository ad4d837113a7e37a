package load

import (
	"runtime"
	"syscall"
	"time"
)

// Pacing waits. The runtime's timers wake late by up to a millisecond on
// Linux, where the scheduler waits for them in epoll with a millisecond
// timeout, and that lateness would be counted as scheduling lag. So the
// pacer waits for a call's intended start itself: it naps until a spin
// window before it (on a timerfd where the platform has one, else on a
// runtime timer), then spins on the clock for the rest. A long wait is cut
// into naps of at most maxNap so that a cancelled run stops soon.
//
// The spin window follows how late naps end: it is kept near the median
// of their lateness, between minSpin and maxSpin, starting at spinWindow.
// A nap that reliably ends 5 µs late needs no 20 µs spin. The median, not a
// higher quantile, and the low cap: on a loaded machine, where naps end
// tens of µs late and now and then milliseconds late, a longer spin costs
// CPU time at every call, and the system deschedules a thread that spins
// more than one that sleeps.
const (
	spinWindow = 20 * time.Microsecond
	minSpin    = 2 * time.Microsecond
	maxSpin    = 30 * time.Microsecond
	maxNap     = 10 * time.Millisecond
)

// A spin is the spin window: a running estimate of the median of naps'
// lateness (a frugal quantile estimate: a step up for a nap later than the
// window, a step down for another). The pacers of a run share one;
// only the one that leads uses it.
type spin struct {
	window time.Duration
}

const spinStep = 250 * time.Nanosecond

// note takes the lateness of a nap's end.
func (s *spin) note(late time.Duration) {
	if late > s.window {
		s.window = min(s.window+spinStep, maxSpin)
	} else {
		s.window = max(s.window-spinStep, minSpin)
	}
}

// A waiter waits for intended starts. It belongs to one goroutine, which
// naps on it; another may ring it (wake it after a delay) while that
// goroutine is parked in wait, and close it to wake it for good.
type waiter struct {
	done  <-chan struct{}
	spin  *spin
	yield bool        // spin yielding: with one P, a spin would hold up the calls handed off
	timer *time.Timer // where the platform naps on a runtime timer; else a fallback
	conn  syscall.RawConn
	file  interface{ Close() error } // the timerfd, where the platform has one
	fd    int

	expired func(fd uintptr) bool // reads the timerfd; false if not yet
	readErr syscall.Errno         // what the last read of the timerfd failed with
}

func newNapTimer() *time.Timer {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return t
}

// timerNap sleeps for about d on a runtime timer, less if done is closed.
func (w *waiter) timerNap(d time.Duration) {
	w.timer.Reset(d)
	select {
	case <-w.done:
	case <-w.timer.C:
	}
}

// until waits for due; false if done is closed first.
func (w *waiter) until(due time.Time) bool {
	for {
		if w.cancelled() {
			return false
		}
		d := time.Until(due)
		if d <= 0 {
			return true
		}
		if d <= w.spin.window {
			for time.Until(due) > 0 {
				if w.yield {
					runtime.Gosched()
				}
			}
			return !w.cancelled()
		}
		nap := min(d-w.spin.window, maxNap)
		end := time.Now().Add(nap)
		w.nap(nap)
		w.spin.note(time.Since(end))
	}
}

func (w *waiter) cancelled() bool {
	select {
	case <-w.done:
		return true
	default:
		return false
	}
}
