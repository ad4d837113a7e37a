package loadtarget

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/rpckit/rpckit/load"
	"github.com/rpckit/rpckit/thrift/client"
	"github.com/rpckit/rpckit/thrift/idl"
)

// Options describe what a target calls and how. Function and Client.Addr
// are required.
type Options struct {
	// Client configures the connections. Its MaxConns is the number of
	// connections, each with one call in flight (Thrift's framed and
	// buffered transports answer calls in order); its Timeout bounds each
	// call of the run (see Apply).
	Client client.Options
	// Function is the function called; a oneway one sends and waits for
	// no reply.
	Function *idl.Function
	// Args is the encoded arguments struct (its fields and Stop) in
	// Client.Protocol; empty means no arguments.
	Args []byte
}

// Target is a Thrift function's load target.
type Target struct {
	c       *client.Client
	fn      *idl.Function
	name    string // as sent: the function's name
	args    []byte
	opts    client.Options
	replies sync.Pool // *[]byte, one reply buffer per call in flight
	excs    []exception
}

// exception is a declared exception's result field.
type exception struct {
	id  int16
	err *ExceptionError
}

// ExceptionError is a declared exception the server replied with: the
// name of its type (InvalidRequest) and its field in the result struct.
type ExceptionError struct {
	Name  string
	Field int16
}

func (e *ExceptionError) Error() string {
	return fmt.Sprintf("exception %s (result field %d)", e.Name, e.Field)
}

// New builds the target and makes one call, not counted, to check that
// the server answers the function in the transport and protocol given: a
// server down, a transport or protocol mismatch or an unknown function is
// an error now rather than every call of the run failing. A declared
// exception is an answer.
func New(ctx context.Context, opts Options) (*Target, error) {
	if opts.Function == nil {
		return nil, errors.New("loadtarget: no function")
	}
	t := newTarget(opts)
	c, err := client.New(opts.Client)
	if err != nil {
		return nil, fmt.Errorf("loadtarget: %w", err)
	}
	t.c = c
	if err := t.probe(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return t, nil
}

// newTarget is the Target of opts before it has a client.
func newTarget(opts Options) *Target {
	t := &Target{fn: opts.Function, name: opts.Function.Name, args: opts.Args, opts: opts.Client}
	if len(t.args) == 0 {
		t.args = []byte{0} // an empty struct, in both protocols
	}
	t.replies.New = func() any { b := make([]byte, 0, 512); return &b }
	for _, f := range throwsFields(opts.Function) {
		t.excs = append(t.excs, exception{f.ID, &ExceptionError{Name: f.Type.Name, Field: f.ID}})
	}
	return t
}

func throwsFields(fn *idl.Function) []*idl.Field {
	if fn.Throws == nil {
		return nil
	}
	return fn.Throws.Fields
}

// probe makes the first call; only a declared exception may fail it.
func (t *Target) probe(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 2*t.probeTimeout())
	defer cancel()
	err := t.Call(ctx)
	var exc *ExceptionError
	if err == nil || errors.As(err, &exc) {
		return nil
	}
	var ae *client.ApplicationError
	if errors.As(err, &ae) && ae.Type == client.UnknownMethod {
		return fmt.Errorf("loadtarget: the server does not know %s: %w", t.fn.Name, err)
	}
	return fmt.Errorf("loadtarget: the first call failed: %w", err)
}

// probeTimeout is the dial timeout, 5 s when none is set.
func (t *Target) probeTimeout() time.Duration {
	if t.opts.DialTimeout > 0 {
		return t.opts.DialTimeout
	}
	return 5 * time.Second
}

// Call makes one call. A reply with a declared exception is an
// *ExceptionError, a TApplicationException a *client.ApplicationError.
func (t *Target) Call(ctx context.Context) error {
	if t.fn.Oneway {
		return t.c.Oneway(ctx, t.name, t.args)
	}
	bp := t.replies.Get().(*[]byte)
	defer t.replies.Put(bp)
	reply, err := t.c.Call(ctx, t.name, t.args, (*bp)[:0])
	if err != nil {
		return err
	}
	if cap(reply) <= 1<<20 {
		*bp = reply[:0] // keep a grown buffer, within reason
	}
	return t.outcome(reply)
}

// outcome reads which field of the result struct is set.
func (t *Target) outcome(reply []byte) error {
	f, ok, err := client.ResultField(t.opts.Protocol, reply)
	if err != nil {
		return fmt.Errorf("loadtarget: %s: reading the result: %w", t.fn.Name, err)
	}
	if !ok || f.ID == 0 {
		return nil
	}
	if e := t.exception(f.ID); e != nil {
		return e
	}
	return fmt.Errorf("loadtarget: %s: result field %d is no exception of the IDL", t.fn.Name, f.ID)
}

// exception is the error of the declared exception in result field id.
func (t *Target) exception(id int16) error {
	for _, e := range t.excs {
		if e.id == id {
			return e.err
		}
	}
	return nil
}

// Close closes the connections.
func (t *Target) Close() { t.c.Close() }

// Apply sets what o needs for this target: Code, and no per-call
// timeout, as the client bounds each call by Options.Client.Timeout at
// less cost than a context per call (o.Drain defaults to the lesser of
// load.DefaultDrain and that timeout). Call it before the run.
func (t *Target) Apply(o *load.Options) {
	o.Code = Code
	if o.Drain == 0 && t.opts.Timeout > 0 {
		o.Drain = min(load.DefaultDrain, t.opts.Timeout)
	}
	o.Timeout = 0
}

// Code labels a call's outcome: "OK", a declared exception by its type's
// name ("InvalidRequest"), an application exception by its Apache type
// ("UNKNOWN_METHOD"), other errors as load.DefaultCode does.
func Code(err error) string {
	if err == nil {
		return "OK"
	}
	var exc *ExceptionError
	if errors.As(err, &exc) {
		return exc.Name
	}
	var ae *client.ApplicationError
	if errors.As(err, &ae) {
		return ae.Type.String()
	}
	return load.DefaultCode(err)
}
