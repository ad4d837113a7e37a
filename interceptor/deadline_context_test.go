package interceptor

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

type ctxKey struct{}

// TestDeadlineContextLikeWithDeadline: the capped context answers as
// context.WithDeadline's does, whether or not its Done was asked for.
func TestDeadlineContextLikeWithDeadline(t *testing.T) {
	parent := context.WithValue(context.Background(), ctxKey{}, "v")
	for _, askDone := range []bool{false, true} {
		ctx, stop := capped(parent, 30*time.Millisecond)
		if _, ok := ctx.(*deadlineContext); !ok {
			t.Fatalf("capDeadline gave %T", ctx)
		}
		if d, ok := ctx.Deadline(); !ok || time.Until(d) > 30*time.Millisecond {
			t.Errorf("deadline %v %v", d, ok)
		}
		if ctx.Value(ctxKey{}) != "v" {
			t.Error("parent value lost")
		}
		if askDone {
			select {
			case <-ctx.Done():
			case <-time.After(10 * time.Second):
				t.Fatal("Done did not close at the deadline")
			}
		} else {
			if err := ctx.Err(); err != nil {
				t.Errorf("Err before the deadline = %v", err)
			}
			time.Sleep(40 * time.Millisecond)
		}
		if err := ctx.Err(); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("askDone=%v: Err = %v, want DeadlineExceeded", askDone, err)
		}
		if err := context.Cause(ctx); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("askDone=%v: Cause = %v, want DeadlineExceeded", askDone, err)
		}
		select {
		case <-ctx.Done():
		default:
			t.Error("Done open after the deadline")
		}
		stop()
		if err := ctx.Err(); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Err after stop = %v, want DeadlineExceeded kept", err)
		}
	}
}

// TestDeadlineContextCancel: the parent's cancellation shows, before and
// after a timer is made, and so does stop.
func TestDeadlineContextCancel(t *testing.T) {
	for _, askDone := range []bool{false, true} {
		parent, cancel := context.WithCancel(context.Background())
		ctx, stop := capped(parent, time.Hour)
		if askDone {
			_ = ctx.Done()
		}
		cancel()
		if err := ctx.Err(); !errors.Is(err, context.Canceled) {
			t.Errorf("askDone=%v: Err = %v after the parent's cancel", askDone, err)
		}
		select {
		case <-ctx.Done():
		case <-time.After(10 * time.Second):
			t.Fatal("Done did not follow the parent")
		}
		stop()
	}
	ctx, stop := capped(context.Background(), time.Hour)
	child, cancelChild := context.WithCancel(ctx) // asks for Done
	defer cancelChild()
	stop()
	if err := ctx.Err(); !errors.Is(err, context.Canceled) {
		t.Errorf("Err after stop = %v, want Canceled", err)
	}
	select {
	case <-child.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("a derived context outlived stop")
	}
	ctx, stop = capped(context.Background(), time.Hour)
	stop()
	select {
	case <-ctx.Done(): // asked for only after stop
	default:
		t.Error("Done open after stop")
	}
}

// TestDeadlineContextDerived: contexts derived from the capped one end at
// its deadline.
func TestDeadlineContextDerived(t *testing.T) {
	ctx, stop := capped(context.Background(), 20*time.Millisecond)
	defer stop()
	child, cancel := context.WithCancel(ctx)
	defer cancel()
	select {
	case <-child.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("derived context did not end at the cap")
	}
	if err := child.Err(); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("derived Err = %v", err)
	}
}

// TestCapDeadlineKeepsSooner: a sooner deadline, or no cap, leaves the
// context as it is.
func TestCapDeadlineKeepsSooner(t *testing.T) {
	parent, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if ctx, stop := capped(parent, time.Hour); ctx != parent {
		t.Error("a sooner deadline was replaced")
	} else {
		stop()
	}
	if ctx, _ := capped(parent, 0); ctx != parent {
		t.Error("a zero cap changed the context")
	}
}

// TestDeadlineContextConcurrent: Done, Err and stop from several
// goroutines at once (run under -race).
func TestDeadlineContextConcurrent(t *testing.T) {
	for range 100 {
		ctx, stop := capped(context.Background(), time.Millisecond)
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				<-ctx.Done()
				if ctx.Err() == nil {
					t.Error("Done closed with a nil Err")
				}
			})
		}
		wg.Go(stop)
		wg.Wait()
	}
}

// capped is capDeadline from now, with a stop function for the end of the
// call.
func capped(ctx context.Context, max time.Duration) (context.Context, func()) {
	ctx, c := capDeadline(ctx, max, time.Now())
	return ctx, func() { c.stop(time.Now()) }
}
