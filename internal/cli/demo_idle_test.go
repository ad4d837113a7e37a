package cli

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// TestDemoWaitIdle: the next load test waits for the calls in flight to
// end, and for no longer than its bound when they do not.
func TestDemoWaitIdle(t *testing.T) {
	d := &demoServices{}
	d.inFlight.Store(1)
	var ended atomic.Bool
	go func() {
		time.Sleep(100 * time.Millisecond)
		ended.Store(true)
		d.inFlight.Add(-1)
	}()
	d.waitIdle(context.Background(), time.Minute)
	if !ended.Load() {
		t.Error("waitIdle returned with a call in flight")
	}
	d.inFlight.Store(1)
	start := time.Now()
	d.waitIdle(context.Background(), 200*time.Millisecond)
	if time.Since(start) > 30*time.Second {
		t.Error("waitIdle ignored its bound")
	}
}
