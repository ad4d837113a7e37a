package interceptor

import (
	"context"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
)

// capDeadline bounds ctx's deadline to max from now. It returns ctx and a
// nil *deadlineContext when max is not positive or the deadline is already
// sooner. Call stop on the second result when the call is over: the
// capped context is then cancelled.
func capDeadline(ctx context.Context, max time.Duration, now time.Time) (context.Context, *deadlineContext) {
	if max <= 0 {
		return ctx, nil
	}
	d := now.Add(max)
	if dl, ok := ctx.Deadline(); ok && !dl.After(d) {
		return ctx, nil
	}
	c := &deadlineContext{Context: ctx, deadline: d}
	return c, c
}

// deadlineContext is its parent with a sooner deadline. It behaves as
// context.WithDeadline(parent, deadline) does, but makes that context, and
// its timer, only when something asks for the Done channel: most handlers
// never wait on their context, and a timer armed and stopped on every
// call was a sizeable share of the chain's cost. Until then, Err compares
// the clock with the deadline.
type deadlineContext struct {
	context.Context
	deadline time.Time
	timed    atomic.Pointer[timedContext]
}

// timedContext is the context.WithDeadline a deadlineContext stands for.
type timedContext struct {
	ctx    context.Context
	cancel context.CancelFunc
}

// stopped stands for a deadlineContext whose call is over: cancelled.
var stopped = func() *timedContext {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return &timedContext{ctx: ctx, cancel: cancel}
}()

func (c *deadlineContext) Deadline() (time.Time, bool) { return c.deadline, true }

// Done makes the timed context on first use.
func (c *deadlineContext) Done() <-chan struct{} { return c.materialize().ctx.Done() }

func (c *deadlineContext) materialize() *timedContext {
	if t := c.timed.Load(); t != nil {
		return t
	}
	ctx, cancel := context.WithDeadline(c.Context, c.deadline)
	t := &timedContext{ctx: ctx, cancel: cancel}
	if c.timed.CompareAndSwap(nil, t) {
		return t
	}
	cancel()
	return c.timed.Load()
}

// Err answers without a timer while the deadline is ahead; once it has
// passed, the timed context is made, so context.Cause sees a cancelled
// context too.
func (c *deadlineContext) Err() error {
	if t := c.timed.Load(); t != nil {
		return t.ctx.Err()
	}
	if err := c.Context.Err(); err != nil {
		return err
	}
	if time.Now().Before(c.deadline) {
		return nil
	}
	return c.materialize().ctx.Err()
}

// Value asks the timed context once there is one, so that contexts
// derived from this one find its cancellation, as the context package's
// own do.
func (c *deadlineContext) Value(key any) any {
	if t := c.timed.Load(); t != nil && t != stopped {
		return t.ctx.Value(key)
	}
	return c.Context.Value(key)
}

func (c *deadlineContext) String() string {
	return "interceptor.capDeadline(" + c.deadline.String() + ")"
}

// stop cancels the context at now, when the call is over; nil does
// nothing. A context that had already ended keeps the reason it ended, as
// a cancelled context.WithDeadline does.
func (c *deadlineContext) stop(now time.Time) {
	if c == nil {
		return
	}
	if now.Before(c.deadline) && c.Context.Err() == nil && c.timed.CompareAndSwap(nil, stopped) {
		return
	}
	if t := c.materialize(); t != stopped {
		t.cancel()
	}
}

// UnaryServerMaxDeadline caps the time a handler gets: a call with no
// deadline, or one further away than max, runs with max. The caller sees
// DEADLINE_EXCEEDED from handlers that honour their context. A max of zero
// or less imposes nothing.
func UnaryServerMaxDeadline(max time.Duration) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		ctx, capped := capDeadline(ctx, max, time.Now())
		resp, err := handler(ctx, req)
		capped.stop(time.Now())
		return resp, err
	}
}

// StreamServerMaxDeadline is UnaryServerMaxDeadline for streams: the cap
// covers the whole stream.
func StreamServerMaxDeadline(max time.Duration) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		ctx, capped := capDeadline(ss.Context(), max, time.Now())
		defer func() { capped.stop(time.Now()) }()
		return handler(srv, withContext(ss, ctx))
	}
}
