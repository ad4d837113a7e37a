package lean

import (
	"context"
	"slices"
)

// Cancellation. A call waits for its stream to end or its ctx to be done:
// a select on two channels, each time. Calls that share a ctx's Done
// channel (a load generator's workers do: one ctx for the whole run) wait
// on their stream alone instead, and one goroutine per such channel ends
// their streams when it closes. A Done channel is watched once two calls
// in a row on the connection have brought it, while fewer than maxWatches
// are watched; a ctx made for one call never is, and keeps the select.

const maxWatches = 4

// A ctxWatch is a Done channel watched, and the streams whose calls wait
// on it: a list through stream.wprev and wnext.
type ctxWatch struct {
	done  <-chan struct{}
	first *stream
}

// watchCtxLocked puts s under the watch of ctx's Done channel if there is
// one, or starts one; it reports whether s is watched, and need not
// select on ctx.
func (t *transport) watchCtxLocked(s *stream, ctx context.Context) bool {
	d := ctx.Done()
	if d == nil {
		return false
	}
	var w *ctxWatch
	for _, x := range t.watches {
		if x.done == d {
			w = x
			break
		}
	}
	if w == nil {
		if d != t.lastDone || len(t.watches) >= maxWatches {
			t.lastDone = d
			return false
		}
		w = &ctxWatch{done: d}
		t.watches = append(t.watches, w)
		go t.watchCtx(w)
	}
	s.ctx, s.watch = ctx, w
	s.wnext = w.first
	if w.first != nil {
		w.first.wprev = s
	}
	w.first = s
	return true
}

// unwatchCtxLocked takes s off its watch's list.
func (t *transport) unwatchCtxLocked(s *stream) {
	if s.wprev != nil {
		s.wprev.wnext = s.wnext
	} else {
		s.watch.first = s.wnext
	}
	if s.wnext != nil {
		s.wnext.wprev = s.wprev
	}
	s.wprev, s.wnext = nil, nil
}

// watchCtx ends the streams under w with their ctx's error once w's
// channel closes; it stops when the connection closes (its streams have
// ended).
func (t *transport) watchCtx(w *ctxWatch) {
	fired := false
	select {
	case <-w.done:
		fired = true
	case <-t.closed:
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.watches = slices.DeleteFunc(t.watches, func(x *ctxWatch) bool { return x == w })
	for fired && w.first != nil {
		s := w.first
		t.finishLocked(s, ctxError(s.ctx.Err()), true)
	}
}
