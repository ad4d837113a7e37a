package loadtarget

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/rpckit/rpckit/invoke"
	"github.com/rpckit/rpckit/invoke/lean"
	"github.com/rpckit/rpckit/load"
)

// leanTarget calls through invoke/lean.
type leanTarget struct {
	o      *Options
	conns  []*lean.Conn
	next   atomic.Uint64
	method *lean.Method
	msgs   []lean.Message
	opts   lean.CallOptions // unary and paced, without a per-call callback; the timeout
	stream bool             // record per-message latencies
}

// LeanOptions are the lean engine's options for the connection d
// describes; the TLS files are read now.
func LeanOptions(d invoke.DialOptions) (lean.Options, error) {
	opts := lean.Options{
		Plaintext: d.Plaintext, Authority: d.Authority, UserAgent: d.UserAgent,
		ConnectTimeout: d.ConnectTimeout, MaxRecvMsgSize: d.MaxMsgSize,
	}
	if !d.Plaintext {
		cfg, err := d.TLS.Config()
		if err != nil {
			return opts, err
		}
		opts.TLS = cfg
	}
	return opts, nil
}

func newLean(ctx context.Context, o Options) (*Target, error) {
	md := o.Method
	m, err := lean.NewMethod(invoke.MethodPath(md), lean.MethodOptions{ServerStreams: md.IsStreamingServer(), Metadata: o.Metadata})
	if err != nil {
		return nil, err
	}
	t := &leanTarget{o: &o, method: m, opts: lean.CallOptions{Interval: o.Interval},
		stream: md.IsStreamingServer() || md.IsStreamingClient()}
	t.msgs = messages(o.Requests)
	for range max(o.Connections, 1) {
		c, err := lean.Dial(ctx, o.Address, o.Lean)
		if err != nil {
			t.close()
			return nil, err
		}
		t.conns = append(t.conns, c)
	}
	return &Target{call: t.call, close: t.close, lean: t}, nil
}

func messages(reqs [][]byte) []lean.Message {
	msgs := make([]lean.Message, len(reqs))
	for i, r := range reqs {
		msgs[i] = lean.NewMessage(r)
	}
	return msgs
}

func (t *leanTarget) close() {
	for _, c := range t.conns {
		c.Close()
	}
}

func (t *leanTarget) call(ctx context.Context) error {
	msgs, err := t.requests(ctx)
	if err != nil {
		return err
	}
	c := t.conns[0]
	if len(t.conns) > 1 {
		c = t.conns[t.next.Add(1)%uint64(len(t.conns))]
	}
	return t.callError(c.Call(ctx, t.method, msgs, t.callOptions(ctx)))
}

// callOptions are the shared options, or for a stream with a recorder, a
// copy that records the time of each response message since the previous
// one (the first: since the start).
func (t *leanTarget) callOptions(ctx context.Context) *lean.CallOptions {
	rec := load.RecorderFrom(ctx)
	if !t.stream || rec == nil {
		return &t.opts
	}
	last := time.Now()
	return &lean.CallOptions{Interval: t.opts.Interval, Timeout: t.opts.Timeout, OnMessage: func([]byte) {
		now := time.Now()
		rec.Record(now.Sub(last))
		last = now
	}}
}

func (t *leanTarget) requests(ctx context.Context) ([]lean.Message, error) {
	if t.o.Render == nil {
		return t.msgs, nil
	}
	reqs, err := t.o.requests(ctx)
	if err != nil {
		return nil, err
	}
	return messages(reqs), nil
}

// callError gives a failed call the shape the grpc engine gives it, so
// reports read the same whichever engine ran.
func (t *leanTarget) callError(err error) error {
	if err == nil {
		return nil
	}
	var e *lean.Error
	if errors.As(err, &e) {
		return &invoke.Error{Method: t.o.Method.FullName(), Status: e.GRPCStatus()}
	}
	return err
}
