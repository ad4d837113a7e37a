package lean

import (
	"context"
	"time"
)

// Deadlines. A call's deadline comes from its ctx, or from
// CallOptions.Timeout, whichever is earlier. A ctx deadline is enforced by
// ctx itself; a Timeout is enforced by the transport: its open streams with
// such a deadline sit in a min-heap, and one timer per transport fires at
// the earliest. A call then costs a heap push and a removal instead of a
// context, a timer and a done channel of its own. The waits before a
// stream exists (for a connection, for a stream slot) are rare, and bound
// by a context made for them.

// A deadline is when a call must end; at is zero for none. own means it
// comes from CallOptions.Timeout, earlier than ctx's, and it is the
// transport's to enforce once the stream is open; now is then the time the
// call last looked at the clock.
type deadline struct {
	at, now time.Time
	own     bool
}

// callDeadline is the deadline of a call with opts made now.
func callDeadline(ctx context.Context, opts *CallOptions) deadline {
	at, ok := ctx.Deadline()
	if opts.Timeout <= 0 {
		return deadline{at: at}
	}
	now := monoNow()
	if ok {
		now = time.Now() // at may have no monotonic reading to compare with
	}
	own := now.Add(opts.Timeout)
	if ok && !own.Before(at) {
		return deadline{at: at}
	}
	return deadline{at: own, now: now, own: true}
}

// bound returns ctx ended by the deadline as well, for a wait before the
// stream is open.
func (d *deadline) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	if !d.own {
		return ctx, func() {}
	}
	return context.WithDeadline(ctx, d.at)
}

// tick reads the clock again after a wait; it returns the error of a call
// whose own deadline passed, or nil.
func (d *deadline) tick() *Error {
	if !d.own {
		return nil
	}
	d.now = monoNow()
	if !d.now.Before(d.at) {
		return ctxError(context.DeadlineExceeded)
	}
	return nil
}

// remaining is the time left, for grpc-timeout: from the clock the call
// last read for its own deadline, or from the clock now for ctx's.
func (d *deadline) remaining() time.Duration {
	if d.own {
		return d.at.Sub(d.now)
	}
	return time.Until(d.at)
}

// epoch is the start of monoNow's clock.
var epoch = time.Now()

// monoNow is the time now on the monotonic clock alone: a time.Time that
// compares with and subtracts from others exactly as time.Now's would,
// for one clock reading instead of two (the wall clock's and the
// monotonic one's).
func monoNow() time.Time {
	return epoch.Add(time.Since(epoch))
}

// watchDeadlineLocked puts s, whose deadline is its own, in the heap, and
// arms the timer if s is now the first to expire.
func (t *transport) watchDeadlineLocked(s *stream, now time.Time) {
	s.dlPos = len(t.deadlines) + 1
	t.deadlines = append(t.deadlines, s)
	t.deadlineUp(s.dlPos - 1)
	if !t.dlArmed.IsZero() && !s.deadline.Before(t.dlArmed) {
		return
	}
	t.dlArmed = s.deadline
	d := s.deadline.Sub(now)
	if t.dlTimer == nil {
		t.dlTimer = time.AfterFunc(d, t.expireDeadlines)
		return
	}
	t.dlTimer.Reset(d)
}

// unwatchDeadlineLocked takes s out of the heap. The timer stays armed:
// when it fires early it finds nothing due and is armed again.
func (t *transport) unwatchDeadlineLocked(s *stream) {
	i := s.dlPos - 1
	s.dlPos = 0
	last := len(t.deadlines) - 1
	if i != last {
		moved := t.deadlines[last]
		t.deadlines[i] = moved
		moved.dlPos = i + 1
	}
	t.deadlines[last] = nil
	t.deadlines = t.deadlines[:last]
	if i != last {
		t.deadlineDown(i)
		t.deadlineUp(i)
	}
}

// expireDeadlines ends the calls whose deadline passed, and arms the timer
// for the next one.
func (t *transport) expireDeadlines() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.dlArmed = time.Time{}
	now := time.Now()
	for len(t.deadlines) > 0 {
		s := t.deadlines[0]
		if now.Before(s.deadline) {
			t.dlArmed = s.deadline
			t.dlTimer.Reset(s.deadline.Sub(now))
			return
		}
		t.finishLocked(s, ctxError(context.DeadlineExceeded), true)
	}
}

func (t *transport) deadlineUp(i int) {
	h := t.deadlines
	for i > 0 {
		p := (i - 1) / 2
		if !h[i].deadline.Before(h[p].deadline) {
			return
		}
		t.swapDeadlines(i, p)
		i = p
	}
}

func (t *transport) deadlineDown(i int) {
	h := t.deadlines
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if r := c + 1; r < len(h) && h[r].deadline.Before(h[c].deadline) {
			c = r
		}
		if !h[c].deadline.Before(h[i].deadline) {
			return
		}
		t.swapDeadlines(i, c)
		i = c
	}
}

func (t *transport) swapDeadlines(i, j int) {
	h := t.deadlines
	h[i], h[j] = h[j], h[i]
	h[i].dlPos, h[j].dlPos = i+1, j+1
}
