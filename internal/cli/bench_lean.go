package cli

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/rpckit/rpckit/invoke"
	"github.com/rpckit/rpckit/invoke/lean"
	"github.com/rpckit/rpckit/load"
	"github.com/spf13/pflag"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// The gRPC engines of bench: lean (invoke/lean, rpckit's own HTTP/2
// client, the default: a fraction of grpc-go's CPU per call) and grpc
// (grpc-go through invoke, for fidelity). Both report the same things the
// same way: status codes, errors, stream message latencies.
const (
	engineLean = "lean"
	engineGRPC = "grpc"
)

func (f *grpcBenchFlags) registerEngine(fs *pflag.FlagSet) {
	fs.StringVar(&f.engine, "engine", engineLean, "gRPC client: lean (rpckit's own HTTP/2 client, low CPU per call) or grpc (grpc-go, for fidelity)")
}

func (f *grpcBenchFlags) checkEngine() error {
	if f.engine != engineLean && f.engine != engineGRPC {
		return usagef("--engine %q: want lean or grpc", f.engine)
	}
	return nil
}

// leanTarget makes the calls of a grpcTarget (method, requests or their
// template, metadata, pacing) on lean connections.
type leanTarget struct {
	conns  []*lean.Conn
	next   atomic.Uint64
	md     protoreflect.MethodDescriptor
	method *lean.Method
	msgs   []lean.Message
	tmpl   *requestTemplate
	opts   lean.CallOptions // unary and paced, without a per-call callback; the timeout
	stream bool             // record per-message latencies
}

// leanTarget dials conns lean connections for the prepared gt. Each call is
// bounded by timeout (none if zero), which the lean engine enforces itself.
func (f *grpcBenchFlags) leanTarget(ctx context.Context, target string, gt *grpcTarget, conns int, timeout time.Duration) (*leanTarget, func(), error) {
	opts, err := f.leanOptions()
	if err != nil {
		return nil, nil, err
	}
	md := gt.method
	m, err := lean.NewMethod(invoke.MethodPath(md), lean.MethodOptions{ServerStreams: md.IsStreamingServer(), Metadata: gt.md})
	if err != nil {
		return nil, nil, err
	}
	t := &leanTarget{md: md, method: m, tmpl: gt.tmpl, opts: lean.CallOptions{Interval: gt.pause, Timeout: timeout},
		stream: md.IsStreamingServer() || md.IsStreamingClient()}
	for _, req := range gt.reqs {
		t.msgs = append(t.msgs, lean.NewMessage(req))
	}
	cleanup := func() {
		for _, c := range t.conns {
			c.Close()
		}
	}
	for range max(conns, 1) {
		c, err := lean.Dial(ctx, target, opts)
		if err != nil {
			cleanup()
			return nil, nil, err
		}
		t.conns = append(t.conns, c)
	}
	return t, cleanup, nil
}

// leanOptions are the connection flags for the lean engine.
func (f *grpcBenchFlags) leanOptions() (lean.Options, error) {
	o := f.conn.opts
	opts := lean.Options{
		Plaintext: o.Plaintext, Authority: o.Authority, UserAgent: "rpckit",
		ConnectTimeout: o.ConnectTimeout, MaxRecvMsgSize: o.MaxMsgSize,
	}
	if !o.Plaintext {
		cfg, err := o.TLS.Config()
		if err != nil {
			return opts, err
		}
		opts.TLS = cfg
	}
	return opts, nil
}

// call makes one call; for streams, it records the time of each response
// message since the previous one (the first: since the start).
func (t *leanTarget) call(ctx context.Context) error {
	msgs, err := t.requests(ctx)
	if err != nil {
		return err
	}
	c := t.conns[0]
	if len(t.conns) > 1 {
		c = t.conns[t.next.Add(1)%uint64(len(t.conns))]
	}
	opts := &t.opts
	if t.stream {
		if rec := load.RecorderFrom(ctx); rec != nil {
			last := time.Now()
			opts = &lean.CallOptions{Interval: t.opts.Interval, Timeout: t.opts.Timeout, OnMessage: func([]byte) {
				now := time.Now()
				rec.Record(now.Sub(last))
				last = now
			}}
		}
	}
	return t.callError(c.Call(ctx, t.method, msgs, opts))
}

func (t *leanTarget) requests(ctx context.Context) ([]lean.Message, error) {
	msgs := t.msgs
	if t.tmpl != nil {
		reqs, err := t.tmpl.requests(ctx)
		if err != nil {
			return nil, err
		}
		msgs = make([]lean.Message, len(reqs))
		for i, r := range reqs {
			msgs[i] = lean.NewMessage(r)
		}
	}
	if !t.md.IsStreamingClient() && len(msgs) != 1 {
		return nil, fmt.Errorf("%s takes one request message; the data has %d", t.md.FullName(), len(msgs))
	}
	return msgs, nil
}

// callError gives a failed call the shape the grpc engine gives it, so
// reports read the same whichever engine ran.
func (t *leanTarget) callError(err error) error {
	if err == nil {
		return nil
	}
	var e *lean.Error
	if errors.As(err, &e) {
		return &invoke.Error{Method: t.md.FullName(), Status: e.GRPCStatus()}
	}
	return err
}
