package client

import (
	"slices"
	"time"
)

// Cancellation. A call bounded by a context's Done channel must end when
// it closes. context.AfterFunc does that but allocates on every call; a
// load generator's workers, though, bring one context for the whole run.
// So once two calls in a row on a connection bring the same Done channel,
// a goroutine of the connection's waits on it for every later call, and
// cuts the call in flight short (a past deadline) when it closes; up to
// maxWatches channels are watched so. Other contexts take AfterFunc.

const maxWatches = 4

// watch puts the call on the connection's watcher of d, starting one if d
// came twice in a row and none runs; it reports whether the watcher
// covers the call. unwatch must follow a covered call.
func (c *conn) watch(d <-chan struct{}) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.watching(d) {
		free := slices.Index(c.watched[:], nil)
		if free < 0 || d != c.lastDone {
			c.lastDone = d
			return false
		}
		c.watched[free] = d
		go c.watchDone(d)
	}
	c.callDone = d
	return true
}

func (c *conn) watching(d <-chan struct{}) bool {
	for _, w := range c.watched {
		if w == d {
			return true
		}
	}
	return false
}

// unwatch ends a covered call and reports whether the watcher cut it.
func (c *conn) unwatch() (cut bool) {
	c.mu.Lock()
	cut, c.cut, c.callDone = c.cut, false, nil
	c.mu.Unlock()
	return cut
}

// watchDone waits for d or the connection's end; when d closes it cuts
// the call in flight, if it is d's, and stops.
func (c *conn) watchDone(d <-chan struct{}) {
	select {
	case <-d:
	case <-c.closed:
	}
	c.mu.Lock()
	if c.callDone == d {
		c.nc.SetDeadline(time.Unix(1, 0))
		c.cut = true
	}
	c.watched[slices.Index(c.watched[:], d)] = nil
	c.mu.Unlock()
}
