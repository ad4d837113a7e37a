package lean

import (
	"context"
	"time"

	"google.golang.org/grpc/metadata"
)

// CallOptions shape one call. The zero value sends the requests back to
// back and counts the response messages.
type CallOptions struct {
	// Interval is a pause between request messages (client and bidi
	// streams).
	Interval time.Duration
	// OnMessage, when set, is called with each response message, in
	// order, as it arrives, from the connection's reader goroutine: msg is
	// valid only during the call, and OnMessage must return quickly and
	// not use the Conn.
	OnMessage func(msg []byte)
	// Header and Trailer, when set, receive the response metadata.
	Header, Trailer *metadata.MD
	// Timeout, when positive, bounds the call as a context deadline that
	// long after the call starts would, unless ctx's deadline is earlier:
	// it is sent as grpc-timeout, and a call still running then ends with
	// DEADLINE_EXCEEDED and is reset. It costs less than such a context.
	Timeout time.Duration
}

var noOptions CallOptions

// maxAttempts bounds the tries of a call the server refused unprocessed.
const maxAttempts = 5

// Call makes one call of any kind: it sends reqs (none, one, or a stream;
// the last half-closes the call), then waits for the response messages
// (to opts.OnMessage) and the status. A call that does not end OK returns
// an *Error. The deadline comes from ctx or opts.Timeout, whichever is
// earlier, and cancellation from ctx; the deadline is sent as
// grpc-timeout, and a call cut short is reset on the wire.
//
// A call the server did not process (past a GOAWAY, or refused) is made
// again on a new connection.
func (c *Conn) Call(ctx context.Context, m *Method, reqs []Message, opts *CallOptions) error {
	if opts == nil {
		opts = &noOptions
	}
	dl := callDeadline(ctx, opts)
	for attempt := 1; ; attempt++ {
		if attempt > 1 {
			if err := dl.tick(); err != nil {
				return err
			}
		}
		t, err := c.transport(ctx, &dl)
		if err != nil {
			return err
		}
		err = t.call(ctx, m, reqs, opts, &dl)
		if err != errRefused || attempt == maxAttempts {
			return err
		}
	}
}

// call makes the call on this connection.
func (t *transport) call(ctx context.Context, m *Method, reqs []Message, opts *CallOptions, dl *deadline) error {
	if err := ctx.Err(); err != nil {
		return ctxError(err)
	}
	if err := t.acquire(ctx, dl); err != nil {
		return err
	}
	s := getStream(t, m, opts)
	t.mu.Lock()
	if t.draining.Load() {
		t.releaseLocked()
		t.mu.Unlock()
		s.put()
		return errRefused
	}
	t.openLocked(s, dl, len(reqs) == 0)
	next, rest := t.sendReadyLocked(s, reqs, opts.Interval)
	more := next < len(reqs) || len(rest) > 0
	s.sending = more
	watched := t.watchCtxLocked(s, ctx)
	t.kickLocked()
	t.mu.Unlock()
	if more {
		t.sendRest(ctx, s, reqs, next, rest, opts.Interval)
	}
	return t.wait(ctx, s, watched)
}

// sendReadyLocked appends the requests that can go at once: all of them
// back to back while the windows allow, or the first when paced. It
// returns the index of the next request and what is left of the one
// before it.
func (t *transport) sendReadyLocked(s *stream, reqs []Message, interval time.Duration) (next int, rest []byte) {
	for next < len(reqs) {
		rest = t.writeDataLocked(s, s.payload(reqs[next]), next == len(reqs)-1)
		next++
		if len(rest) > 0 || interval > 0 {
			return next, rest
		}
	}
	return next, nil
}

// sendRest sends the rest of the requests, waiting for send windows and
// pacing; it stops early when the stream ends or ctx is done.
func (t *transport) sendRest(ctx context.Context, s *stream, reqs []Message, next int, rest []byte, interval time.Duration) {
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		if len(rest) > 0 && !t.sendBlocking(ctx, s, rest, next == len(reqs)) {
			return
		}
		if next == len(reqs) {
			return
		}
		if interval > 0 {
			if timer == nil {
				timer = time.NewTimer(interval)
			} else {
				timer.Reset(interval)
			}
			if !t.pause(ctx, s, timer) {
				return
			}
		}
		rest = s.payload(reqs[next])
		next++
	}
}

// sendBlocking appends p, waiting for send windows as needed.
func (t *transport) sendBlocking(ctx context.Context, s *stream, p []byte, end bool) bool {
	for {
		t.mu.Lock()
		if s.finished {
			t.mu.Unlock()
			return false
		}
		p = t.writeDataLocked(s, p, end)
		t.kickLocked()
		if len(p) == 0 {
			t.mu.Unlock()
			return true
		}
		t.waitWindowLocked(s)
		t.mu.Unlock()
		select {
		case <-s.wake:
		case <-ctx.Done():
			return false
		}
	}
}

// pause waits for timer; false when the stream ended or ctx is done first.
func (t *transport) pause(ctx context.Context, s *stream, timer *time.Timer) bool {
	for {
		select {
		case <-timer.C:
			return true
		case <-ctx.Done():
			return false
		case <-s.wake:
			t.mu.Lock()
			finished := s.finished
			t.mu.Unlock()
			if finished {
				return false
			}
		}
	}
}

// wait waits for the end of the call; when ctx ends first, the stream is
// reset (by the ctx's watch when watched). It gives the stream back to the
// pool.
func (t *transport) wait(ctx context.Context, s *stream, watched bool) error {
	if watched {
		<-s.done
	} else {
		select {
		case <-s.done:
		case <-ctx.Done():
			t.mu.Lock()
			t.finishLocked(s, ctxError(ctx.Err()), true)
			t.mu.Unlock()
			<-s.done
		}
	}
	err := s.err
	s.put()
	if err == nil {
		return nil
	}
	return err
}
