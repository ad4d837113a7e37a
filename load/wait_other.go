//go:build !linux

package load

import (
	"runtime"
	"time"
)

// newWaiter makes a waiter that naps on a runtime timer.
func newWaiter(done <-chan struct{}) *waiter {
	return &waiter{done: done, spin: &spin{window: spinWindow}, yield: runtime.GOMAXPROCS(0) == 1, timer: newNapTimer()}
}

// nap sleeps for about d, less if done is closed.
func (w *waiter) nap(d time.Duration) {
	w.timerNap(d)
}

// canRing says whether ring and wait work: always, on a runtime timer.
func (w *waiter) canRing() bool { return true }

// ring makes the timer fire in d (at least 1 ns); another goroutine than
// the waiter's may call it.
func (w *waiter) ring(d time.Duration) bool {
	w.timer.Reset(max(d, 1))
	return true
}

// wait parks until the waiter is rung; false if it is closed.
func (w *waiter) wait() bool {
	<-w.timer.C
	return true
}

// close wakes a goroutine parked in wait, as ring(0) does here.
func (w *waiter) close() {
	w.ring(0)
}
