package load

import (
	"testing"
	"time"
)

// until returns at or after the time it waits for, whether the wait is
// spun, napped or cut into several naps, and on either kind of nap.
func TestWaiterUntil(t *testing.T) {
	waits := []time.Duration{-time.Second, 0, spinWindow / 2, 3 * spinWindow, time.Millisecond, maxNap + 3*time.Millisecond}
	waiters := map[string]func() *waiter{
		"platform": func() *waiter { return newWaiter(nil) },
		"timer":    func() *waiter { return &waiter{spin: &spin{window: spinWindow}, timer: newNapTimer()} },
	}
	for name, mk := range waiters {
		w := mk()
		for _, d := range waits {
			due := time.Now().Add(d)
			if !w.until(due) {
				t.Errorf("%s: until(now%+v) = false with done open", name, d)
			}
			if early := time.Until(due); early > 0 {
				t.Errorf("%s: until(now%+v) returned %v early", name, d, early)
			}
		}
		w.close()
	}
}

// until gives up when done is closed, before or during the wait.
func TestWaiterCancel(t *testing.T) {
	done := make(chan struct{})
	close(done)
	w := newWaiter(done)
	defer w.close()
	if w.until(time.Now().Add(-time.Second)) {
		t.Error("until = true with done closed")
	}

	during := make(chan struct{})
	w2 := newWaiter(during)
	defer w2.close()
	go func() {
		time.Sleep(20 * time.Millisecond)
		close(during)
	}()
	if w2.until(time.Now().Add(time.Hour)) {
		t.Error("until = true for a wait cancelled on the way")
	}
}

// The spin window settles near the median of naps' lateness, and stays
// within minSpin and maxSpin.
func TestSpinFollowsLateness(t *testing.T) {
	s := &spin{window: spinWindow}
	for i := range 20000 { // lateness spread evenly over 0-20 µs: the median is 10 µs
		s.note(time.Duration(i*7919%20000) * time.Nanosecond)
	}
	if s.window < 8*time.Microsecond || s.window > 12*time.Microsecond {
		t.Errorf("window %v after lateness spread over 0-20 µs; want about 10 µs", s.window)
	}
	for range 1000 {
		s.note(time.Millisecond)
	}
	if s.window != maxSpin {
		t.Errorf("window %v after late naps; want %v", s.window, maxSpin)
	}
	for range 1000 {
		s.note(0)
	}
	if s.window != minSpin {
		t.Errorf("window %v after punctual naps; want %v", s.window, minSpin)
	}
}
