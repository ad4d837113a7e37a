// Package bodytimeout bounds how long an HTTP server waits for a request
// body, so that a client trickling bytes (a slowloris) cannot hold a
// handler and its connection forever. The clock is the connection's own
// read deadline, set through http.ResponseController (HTTP/1 and HTTP/2
// alike), and it runs only while the body is being read: it stops at the
// body's end, so a long response after it is not cut off, and a stream may
// stop it between its messages (Body.Idle).
//
// It imports only the standard library; gateway, ui and server use it.
package bodytimeout

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"time"
)

// Default is the time a body may take when none is configured.
const Default = 30 * time.Second

// Error is the error of a body read the clock cut off.
type Error struct {
	Timeout time.Duration
}

func (e *Error) Error() string {
	return fmt.Sprintf("request body not received within %v", e.Timeout)
}

// Unwrap lets errors.Is(err, os.ErrDeadlineExceeded) hold.
func (e *Error) Unwrap() error { return os.ErrDeadlineExceeded }

// Body is a request body that must arrive within a timeout of the first
// read, or, after Idle, of the first bytes that come next. Its methods may
// be called from any goroutine.
type Body struct {
	body    io.ReadCloser
	rc      *http.ResponseController
	timeout time.Duration

	mu       sync.Mutex
	deadline time.Time // zero while the clock is stopped
	idle     bool      // stopped until bytes arrive
	done     bool      // the body ended: no more clock
}

// New wraps r's body; a timeout of zero or less means no clock. w must be
// the handler's ResponseWriter (or unwrap to it).
func New(w http.ResponseWriter, r *http.Request, timeout time.Duration) *Body {
	return &Body{body: r.Body, rc: http.NewResponseController(w), timeout: timeout}
}

// Read reads the body, with the clock running from the first read.
func (b *Body) Read(p []byte) (int, error) {
	b.update(func() {
		if !b.idle && b.deadline.IsZero() {
			b.start()
		}
	})
	n, err := b.body.Read(p)
	timedOut := b.timeout > 0 && errors.Is(err, os.ErrDeadlineExceeded)
	b.update(func() {
		switch {
		case timedOut:
			b.done = true // the deadline stays, passed: the server reads no more of it
		case err != nil:
			b.end()
		case b.idle && n > 0:
			b.idle = false
			b.start()
		}
	})
	if timedOut {
		err = &Error{Timeout: b.timeout}
	}
	return n, err
}

// Idle stops the clock until the next bytes arrive: a stream calls it
// when it has read a whole message and holds no part of the next, since
// waiting for a message is not reading one.
func (b *Body) Idle() {
	b.update(func() {
		b.stop()
		b.idle = true
	})
}

// Restart starts the clock again: a stream calls it when it has read a
// whole message and already holds part of the next.
func (b *Body) Restart() {
	b.update(func() {
		b.idle = false
		b.start()
	})
}

// Finish starts the clock, unless it runs, for what is left of the body
// when the handler is done with it: the server reads that to reuse the
// connection, and a client trickling it must not hold the connection
// either. Call it before the handler returns.
func (b *Body) Finish() {
	b.update(func() {
		if b.deadline.IsZero() {
			b.start()
		}
	})
}

// Close closes the body and stops the clock.
func (b *Body) Close() error {
	b.update(b.end)
	return b.body.Close()
}

// update runs f with the lock held, unless the clock is off.
func (b *Body) update(f func()) {
	if b.timeout <= 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.done {
		f()
	}
}

// end stops the clock for good.
func (b *Body) end() {
	b.stop()
	b.done = true
}

func (b *Body) start() {
	b.deadline = time.Now().Add(b.timeout)
	_ = b.rc.SetReadDeadline(b.deadline) // a writer without deadlines: no clock
}

func (b *Body) stop() {
	if b.deadline.IsZero() {
		return
	}
	b.deadline = time.Time{}
	_ = b.rc.SetReadDeadline(time.Time{})
}

// Handler gives every request's body to h wrapped in a Body with timeout
// (Default when zero; none when negative). Requests without a body, and
// upgrades such as WebSocket, are passed as they are.
func Handler(h http.Handler, timeout time.Duration) http.Handler {
	if timeout == 0 {
		timeout = Default
	}
	if timeout < 0 {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody || r.Header.Get("Upgrade") != "" {
			h.ServeHTTP(w, r)
			return
		}
		b := New(w, r, timeout)
		r.Body = b
		h.ServeHTTP(w, r)
		b.Finish()
	})
}
