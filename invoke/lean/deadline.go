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

// A deadline is when a call must end. own means it comes from
// CallOptions.Timeout, earlier than ctx's, and it is the transport's to
// enforce once the stream is open: then atNs is when, on monoNanos' clock,
// and nowNs the time the call last read that clock. Otherwise at is ctx's
// deadline, zero for none.
type deadline struct {
	at          time.Time
	own         bool
	atNs, nowNs int64
}

// has reports whether there is a deadline.
func (d *deadline) has() bool { return d.own || !d.at.IsZero() }

// time is the deadline as a time.Time.
func (d *deadline) time() time.Time {
	if d.own {
		return epoch.Add(time.Duration(d.atNs))
	}
	return d.at
}

// callDeadline is the deadline of a call with opts made now.
func callDeadline(ctx context.Context, opts *CallOptions) deadline {
	at, ok := ctx.Deadline()
	if opts.Timeout <= 0 {
		return deadline{at: at}
	}
	if ok {
		// at may have no monotonic reading: compare wall clocks too.
		now := time.Now()
		if own := now.Add(opts.Timeout); own.Before(at) {
			return deadline{own: true, atNs: int64(own.Sub(epoch)), nowNs: int64(now.Sub(epoch))}
		}
		return deadline{at: at}
	}
	now := monoNanos()
	atNs := now + int64(opts.Timeout)
	if atNs < now { // a Timeout past the clock's end
		return deadline{}
	}
	return deadline{own: true, atNs: atNs, nowNs: now}
}

// bound returns ctx ended by the deadline as well, for a wait before the
// stream is open.
func (d *deadline) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	if !d.own {
		return ctx, func() {}
	}
	return context.WithDeadline(ctx, d.time())
}

// tick reads the clock again after a wait; it returns the error of a call
// whose own deadline passed, or nil.
func (d *deadline) tick() *Error {
	if !d.own {
		return nil
	}
	d.nowNs = monoNanos()
	if d.nowNs >= d.atNs {
		return ctxError(context.DeadlineExceeded)
	}
	return nil
}

// remaining is the time left, for grpc-timeout: from the clock the call
// last read for its own deadline, or from the clock now for ctx's.
func (d *deadline) remaining() time.Duration {
	if d.own {
		return time.Duration(d.atNs - d.nowNs)
	}
	return time.Until(d.at)
}

// epoch is the start of monoNanos' clock.
var epoch = time.Now()

// monoNanos is the time since epoch on the monotonic clock: one clock
// reading, where time.Now makes two (the wall clock's and the monotonic
// one's).
func monoNanos() int64 {
	return int64(time.Since(epoch))
}

// A dlEntry is a stream in the deadline heap, with its deadline on
// monoNanos' clock kept beside it, so that the heap's comparisons stay in
// the heap's own memory.
type dlEntry struct {
	at int64
	s  *stream
}

// watchDeadlineLocked puts s in the heap with its own deadline dl, and
// arms the timer if s is now the first to expire.
func (t *transport) watchDeadlineLocked(s *stream, dl *deadline) {
	s.dlPos = len(t.deadlines) + 1
	t.deadlines = append(t.deadlines, dlEntry{at: dl.atNs, s: s})
	t.deadlineUp(s.dlPos - 1)
	if t.dlArmed != 0 && dl.atNs >= t.dlArmed {
		return
	}
	t.dlArmed = dl.atNs
	d := time.Duration(dl.atNs - dl.nowNs)
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
		t.deadlines[i] = t.deadlines[last]
		t.deadlines[i].s.dlPos = i + 1
	}
	t.deadlines[last] = dlEntry{}
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
	t.dlArmed = 0
	now := monoNanos()
	for len(t.deadlines) > 0 {
		e := t.deadlines[0]
		if now < e.at {
			t.dlArmed = e.at
			t.dlTimer.Reset(time.Duration(e.at - now))
			return
		}
		t.finishLocked(e.s, ctxError(context.DeadlineExceeded), true)
	}
}

func (t *transport) deadlineUp(i int) {
	h := t.deadlines
	for i > 0 {
		p := (i - 1) / 2
		if h[i].at >= h[p].at {
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
		if r := c + 1; r < len(h) && h[r].at < h[c].at {
			c = r
		}
		if h[c].at >= h[i].at {
			return
		}
		t.swapDeadlines(i, c)
		i = c
	}
}

func (t *transport) swapDeadlines(i, j int) {
	h := t.deadlines
	h[i], h[j] = h[j], h[i]
	h[i].s.dlPos, h[j].s.dlPos = i+1, j+1
}
