package load

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The calls a pacer makes itself count toward MaxInFlight: with calls of
// mixed lengths, some short enough for the pacers to make, some longer
// than the gap between calls, no more than MaxInFlight are ever in flight,
// and every call is either made or counted as not sent.
func TestOpenLoopMaxInFlightWithPacerCalls(t *testing.T) {
	t.Parallel()
	for _, limit := range []int{1, 2, 3} {
		var inFlight, most, n atomic.Int64
		target := func(ctx context.Context) error {
			now := inFlight.Add(1)
			defer inFlight.Add(-1)
			for m := most.Load(); now > m && !most.CompareAndSwap(m, now); m = most.Load() {
			}
			if n.Add(1)%4 == 0 { // every fourth call outlasts a few gaps
				time.Sleep(3 * time.Millisecond)
			}
			return nil
		}
		opts := Options{Pacer: Constant{Rate: 2000}, Count: 200, MaxInFlight: limit}
		res, err := runBounded(t, context.Background(), opts, target)
		if err != nil {
			t.Fatal(err)
		}
		if most.Load() > int64(limit) {
			t.Errorf("max in flight %d: %d calls were in flight at once", limit, most.Load())
		}
		if res.Calls+res.NotSent != 200 || res.Calls == 0 {
			t.Errorf("max in flight %d: calls %d, not sent %d; want 200 in all", limit, res.Calls, res.NotSent)
		}
	}
}

// A call that never returns, made by a pacer, holds up neither the
// schedule nor a cancel: the calls after it are made, and Run returns once
// ctx is cancelled, the stuck call cut off.
func TestOpenLoopStuckPacerCall(t *testing.T) {
	t.Parallel()
	stuck := make(chan struct{})
	defer close(stuck)
	var first sync.Once
	var later atomic.Int64
	target := func(ctx context.Context) error {
		isFirst := false
		first.Do(func() { isFirst = true })
		if isFirst {
			<-stuck // ignores ctx
			return nil
		}
		later.Add(1)
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// 100 calls/s: far apart, so a pacer makes the first call itself.
	time.AfterFunc(300*time.Millisecond, cancel)
	res, err := runBounded(t, ctx, Options{Pacer: Constant{Rate: 100}, Duration: time.Minute}, target)
	if !errors.Is(err, context.Canceled) || res == nil {
		t.Fatalf("err %v, result %v; want context.Canceled and a result", err, res)
	}
	if later.Load() < 10 || res.Calls < 10 {
		t.Errorf("%d calls made after the stuck one, %d measured; want about 30", later.Load(), res.Calls)
	}
	if res.Duration >= time.Minute {
		t.Errorf("duration %v", res.Duration)
	}
}
