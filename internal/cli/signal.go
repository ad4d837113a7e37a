package cli

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
)

// signalError is the cause of a context that NotifyContext cancelled.
type signalError struct{ sig syscall.Signal }

func (e signalError) Error() string { return e.sig.String() + " signal received" }

// Is makes the signal a cancellation, as the context's Err says, for code
// that tells an interrupted run from a failed one by context.Canceled.
func (e signalError) Is(target error) bool { return target == context.Canceled }

// NotifyContext returns a context cancelled on the first SIGINT or SIGTERM,
// for Main: a command that a signal ends exits 128 plus the signal's number
// (130, 143), as shells expect. The first signal also restores the
// default handling, so a second one ends the process at once, even in a
// server's drain. stop releases the signal handling.
func NotifyContext(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case s := <-ch:
			signal.Stop(ch)
			sig, _ := s.(syscall.Signal)
			cancel(signalError{sig})
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		cancel(nil)
	}
}

// signalCode is the exit code for a command that ended because of a
// signal NotifyContext caught: 128+N; zero when no signal arrived.
func signalCode(ctx context.Context) int {
	var se signalError
	if errors.As(context.Cause(ctx), &se) {
		return 128 + int(se.sig)
	}
	return 0
}
