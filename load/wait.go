package load

import (
	"io"
	"syscall"
	"time"
)

// Pacing waits. The runtime's timers wake late by up to a millisecond on
// Linux, where the scheduler waits for them in epoll with a millisecond
// timeout, and that lateness would be counted as scheduling lag. So the
// pacer waits for a call's intended start itself: it naps until spinWindow
// before it (on a timerfd where the platform has one, else on a runtime
// timer), then spins on the clock for the rest. A long wait is cut into
// naps of at most maxNap so that a cancelled run stops soon.
const (
	spinWindow = 20 * time.Microsecond
	maxNap     = 10 * time.Millisecond
)

// A waiter waits for intended starts. It belongs to the pacer's goroutine.
type waiter struct {
	done  <-chan struct{}
	timer *time.Timer // where the platform naps on a runtime timer
	file  io.Closer   // a timerfd, where the platform has one
	conn  syscall.RawConn
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
		if d <= spinWindow {
			for time.Until(due) > 0 {
			}
			return !w.cancelled()
		}
		w.nap(min(d-spinWindow, maxNap))
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
