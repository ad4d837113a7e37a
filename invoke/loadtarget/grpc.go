package loadtarget

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/rpckit/rpckit/invoke"
	"github.com/rpckit/rpckit/load"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
)

// grpcTarget calls through invoke: grpc-go, or connect-go for gRPC-Web and
// Connect.
type grpcTarget struct {
	opts  Options
	conns []*invoke.Conn // conns[0] is opts.Conn, not ours to close
	next  atomic.Uint64
	addrs *addressCounts // nil: calls are not counted by address
}

// newInvoke calls through invoke's Conn: grpc-go for GRPC, connect-go for
// Connect.
func newInvoke(ctx context.Context, e Engine, opts Options) (*Target, error) {
	if opts.Conn == nil {
		return nil, fmt.Errorf("loadtarget: the %s engine needs a connection", e)
	}
	t := &grpcTarget{opts: opts, conns: []*invoke.Conn{opts.Conn}}
	for i := 1; i < opts.Connections; i++ {
		if opts.Dial == nil {
			break
		}
		c, err := opts.Dial(ctx)
		if err != nil {
			t.close()
			return nil, err
		}
		t.conns = append(t.conns, c)
	}
	if opts.spread() {
		t.addrs = &addressCounts{}
	}
	return &Target{call: t.call, close: t.close, addrs: t.addrs}, nil
}

// peer is a call option that learns the address that served the call,
// when calls are counted by address.
func (t *grpcTarget) peer() (*peer.Peer, []grpc.CallOption) {
	if t.addrs == nil {
		return nil, nil
	}
	p := &peer.Peer{}
	return p, []grpc.CallOption{grpc.Peer(p)}
}

// count counts a call by the address that served it, if one did.
func (t *grpcTarget) count(p *peer.Peer) {
	if p != nil && p.Addr != nil {
		t.addrs.counter(p.Addr.String()).Add(1)
	}
}

func (t *grpcTarget) close() {
	for _, c := range t.conns[1:] {
		c.Close()
	}
}

func (t *grpcTarget) conn() *invoke.Conn {
	return t.conns[t.next.Add(1)%uint64(len(t.conns))]
}

func (t *grpcTarget) call(ctx context.Context) error {
	if len(t.opts.Metadata) > 0 {
		ctx = metadata.NewOutgoingContext(ctx, t.opts.Metadata)
	}
	reqs, err := t.opts.requests(ctx)
	if err != nil {
		return err
	}
	md := t.opts.Method
	p, popts := t.peer()
	defer t.count(p)
	if !md.IsStreamingClient() && !md.IsStreamingServer() {
		_, err := t.conn().Unary(ctx, md, reqs[0], popts...)
		return err
	}
	return t.stream(ctx, reqs, popts)
}

// stream makes one streaming call: sends reqs (paced by Interval), then
// reads the responses to the end.
func (t *grpcTarget) stream(ctx context.Context, reqs [][]byte, opts []grpc.CallOption) error {
	start := time.Now()
	st, err := t.conn().NewStream(ctx, t.opts.Method, opts...)
	if err != nil {
		return err
	}
	for i, req := range reqs {
		if i > 0 && t.opts.Interval > 0 && !sleepCtx(ctx, t.opts.Interval) {
			break
		}
		if err := st.Send(req); err != nil {
			break // the server ended the call; Recv says how
		}
	}
	if err := st.CloseSend(); err != nil {
		return err
	}
	return receiveAll(ctx, st, start)
}

// receiveAll reads a stream to its end, recording for each response
// message the time since the previous one (the first: since the start).
func receiveAll(ctx context.Context, st *invoke.Stream, last time.Time) error {
	rec := load.RecorderFrom(ctx)
	for {
		_, err := st.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if rec != nil {
			now := time.Now()
			rec.Record(now.Sub(last))
			last = now
		}
	}
}

// sleepCtx waits for d, or less if ctx ends first; it reports whether the
// full time passed.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
