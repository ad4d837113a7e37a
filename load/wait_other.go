//go:build !linux

package load

import "time"

// newWaiter makes a waiter that naps on a runtime timer.
func newWaiter(done <-chan struct{}) *waiter {
	return &waiter{done: done, timer: newNapTimer()}
}

// nap sleeps for about d.
func (w *waiter) nap(d time.Duration) {
	w.timerNap(d)
}

func (w *waiter) close() {}
