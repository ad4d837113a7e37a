package client

import (
	"context"
	"fmt"
	"sync/atomic"
)

// pool holds at most cap(slots) connections. Each slot holds either an
// idle connection or nil, the right to dial one; a call takes a slot and
// gives it back, with its connection if it is still fit for use.
type pool struct {
	slots  chan *conn
	closed atomic.Bool
}

func newPool(n int) *pool {
	p := &pool{slots: make(chan *conn, n)}
	for range n {
		p.slots <- nil
	}
	return p
}

// get waits for a slot, as long as ctx allows, and dials when the slot
// is empty.
func (p *pool) get(ctx context.Context, opts *Options) (*conn, error) {
	var c *conn
	select {
	case c = <-p.slots:
	default:
		select {
		case c = <-p.slots:
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for a connection: %w", context.Cause(ctx))
		}
	}
	if p.isClosed() {
		p.put(c, false)
		return nil, ErrClosed
	}
	if c != nil {
		return c, nil
	}
	c, err := dial(ctx, opts)
	if err != nil {
		p.slots <- nil
		return nil, err
	}
	return c, nil
}

// put returns a slot: the connection when ok, else an empty slot after
// closing it.
func (p *pool) put(c *conn, ok bool) {
	if c != nil && (!ok || p.isClosed()) {
		c.close()
		c = nil
	}
	p.slots <- c
}

func (p *pool) isClosed() bool { return p.closed.Load() }

// close marks the pool closed and closes its idle connections; busy ones
// are closed as they come back.
func (p *pool) close() {
	p.closed.Store(true)
	var idle []*conn
	for len(idle) < cap(p.slots) {
		select {
		case c := <-p.slots:
			idle = append(idle, c)
			continue
		default:
		}
		break
	}
	for _, c := range idle {
		p.put(c, false)
	}
}
