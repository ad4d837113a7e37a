package loadtarget

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
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
	counts []*atomic.Int64 // calls by conns[i]'s address; nil for one address
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
	mo := lean.MethodOptions{ServerStreams: md.IsStreamingServer(), Metadata: o.Metadata}
	if o.Conn != nil {
		mo.GRPCWeb = o.Conn.Protocol() == invoke.ProtocolGRPCWeb
		mo.Connect = o.Conn.Protocol() == invoke.ProtocolConnect
	}
	if mo.Connect && (md.IsStreamingClient() || md.IsStreamingServer()) {
		return nil, fmt.Errorf("loadtarget: the lean engine makes Connect calls of unary methods only; %s streams", md.FullName())
	}
	m, err := lean.NewMethod(invoke.MethodPath(md), mo)
	if err != nil {
		return nil, err
	}
	t := &leanTarget{o: &o, method: m, opts: lean.CallOptions{Interval: o.Interval},
		stream: md.IsStreamingServer() || md.IsStreamingClient()}
	t.msgs = messages(o.Requests)
	addrs, err := o.leanAddresses(ctx)
	if err != nil {
		return nil, err
	}
	if !o.spread() {
		if err := t.dial(ctx, o.Address, max(o.Connections, 1), o.Lean); err != nil {
			t.close()
			return nil, err
		}
		return &Target{call: t.call, close: t.close, lean: t}, nil
	}
	counts, err := t.dialSpread(ctx, addrs)
	if err != nil {
		t.close()
		return nil, err
	}
	return &Target{call: t.call, close: t.close, lean: t, addrs: counts}, nil
}

// dial opens n connections to addr.
func (t *leanTarget) dial(ctx context.Context, addr string, n int, opts lean.Options) error {
	for range n {
		c, err := lean.Dial(ctx, addr, opts)
		if err != nil {
			return err
		}
		t.conns = append(t.conns, c)
	}
	return nil
}

// dialSpread opens the connections over addrs, as many to each, leaving
// out the addresses that do not answer while one does. The authority is
// the target's name, as grpc-go's would be.
func (t *leanTarget) dialSpread(ctx context.Context, addrs []string) (*addressCounts, error) {
	opts := t.o.Lean
	if opts.Authority == "" && len(t.o.Addresses) > 0 {
		opts.Authority = t.o.Address
	}
	per := (max(t.o.Connections, 1) + len(addrs) - 1) / len(addrs)
	counts := &addressCounts{}
	var firstErr error
	for _, a := range addrs {
		c := counts.counter(a)
		before := len(t.conns)
		if err := t.dial(ctx, a, per, opts); err != nil {
			firstErr = cmp.Or(firstErr, err)
			for _, c := range t.conns[before:] {
				c.Close()
			}
			t.conns = t.conns[:before]
			continue
		}
		for range per {
			t.counts = append(t.counts, c)
		}
	}
	if len(t.conns) == 0 {
		return nil, firstErr
	}
	// Interleaved, so that calls taking them in turn go round the addresses.
	interleave(t.conns, t.counts, per)
	return counts, nil
}

// interleave reorders conns (per to each address, grouped) and their
// counters together so that consecutive ones have different addresses.
func interleave(conns []*lean.Conn, counts []*atomic.Int64, per int) {
	n := len(conns) / per
	cs := slices.Clone(conns)
	ks := slices.Clone(counts)
	for i := range conns {
		j := (i%n)*per + i/n
		conns[i], counts[i] = cs[j], ks[j]
	}
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
	c, i := t.conns[0], uint64(0)
	if len(t.conns) > 1 {
		i = t.next.Add(1) % uint64(len(t.conns))
		c = t.conns[i]
	}
	if t.counts != nil {
		t.counts[i].Add(1)
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
