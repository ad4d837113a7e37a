package lean

import (
	"context"
	"slices"
)

// Streams queue for a slot under the peer's MAX_CONCURRENT_STREAMS. A slot
// freed while calls wait passes to the first of them, in order.

// acquire takes a stream slot, waiting while the peer's limit is reached
// (bound by the call's deadline). It returns errRefused when the
// connection stops taking streams.
func (t *transport) acquire(ctx context.Context, dl *deadline) error {
	t.mu.Lock()
	if t.draining.Load() {
		t.mu.Unlock()
		return errRefused
	}
	if t.active < t.maxStreams && len(t.waiters) == 0 {
		t.active++
		t.mu.Unlock()
		return nil
	}
	ch := make(chan bool, 1)
	t.waiters = append(t.waiters, ch)
	t.mu.Unlock()
	ctx, cancel := dl.bound(ctx)
	defer cancel()
	select {
	case granted := <-ch:
		if !granted {
			return errRefused
		}
		if err := dl.tick(); err != nil {
			t.mu.Lock()
			t.releaseLocked()
			t.mu.Unlock()
			return err
		}
		return nil
	case <-ctx.Done():
		t.mu.Lock()
		defer t.mu.Unlock()
		if i := slices.Index(t.waiters, ch); i >= 0 {
			t.waiters = slices.Delete(t.waiters, i, i+1)
		} else if <-ch {
			t.releaseLocked()
		}
		return ctxError(ctx.Err())
	}
}

// releaseLocked frees a slot, handing it to the first waiter if any.
func (t *transport) releaseLocked() {
	if len(t.waiters) > 0 && !t.draining.Load() {
		ch := t.waiters[0]
		t.waiters = slices.Delete(t.waiters, 0, 1)
		ch <- true
		return
	}
	t.active--
}

// grantLocked hands free slots to waiters after the limit went up.
func (t *transport) grantLocked() {
	for len(t.waiters) > 0 && t.active < t.maxStreams {
		t.active++
		ch := t.waiters[0]
		t.waiters = slices.Delete(t.waiters, 0, 1)
		ch <- true
	}
}

// wakeWaitersLocked sends every waiter away to another connection.
func (t *transport) wakeWaitersLocked() {
	for _, ch := range t.waiters {
		ch <- false
	}
	t.waiters = nil
	t.wakeSendersLocked()
}
