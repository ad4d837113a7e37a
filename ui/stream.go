package ui

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rpckit/rpckit/invoke"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// stream is one call over the WebSocket, of any kind: a sending goroutine
// fed by the page's send and half frames, and a receiving one that reads
// responses as the page's window allows.
type stream struct {
	id     string
	s      *wsSession
	md     protoreflect.MethodDescriptor
	codec  invoke.JSONCodec
	st     *invoke.Stream
	cancel context.CancelFunc
	reqs   chan json.RawMessage // nil body: half-close
	win    credit
	sent   atomic.Int64
	start  time.Time
	ctx    context.Context

	mu     sync.Mutex
	closed bool // reqs is closed: half-closed or ended
}

func (s *wsSession) open(f inFrame) {
	if s.stream(f.ID) != nil {
		s.failed(f.ID, errors.New("ui: a call with this id is open"))
		return
	}
	st, err := s.newStream(f)
	if err != nil {
		s.failed(f.ID, err)
		s.send(outFrame{T: "end", ID: f.ID, Result: finish(nil, errStatus(err), 0)})
		return
	}
	s.mu.Lock()
	s.streams[f.ID] = st
	s.mu.Unlock()
	s.wg.Add(2)
	go st.sendLoop()
	go st.recvLoop()
	if !st.md.IsStreamingClient() {
		st.control(inFrame{T: "send", Body: f.Body})
		st.control(inFrame{T: "half"})
	}
}

// errStatus keeps a call's status error, and makes others UNKNOWN.
func errStatus(err error) error {
	if _, ok := status.FromError(err); ok {
		return err
	}
	var ie *invoke.Error
	if errors.As(err, &ie) {
		return err
	}
	return status.Error(codes.Unknown, err.Error())
}

func (s *wsSession) newStream(f inFrame) (*stream, error) {
	t, err := s.h.targets.grpc(f.Conn)
	if err != nil {
		return nil, err
	}
	md, err := t.method(s.ctx, f.Method)
	if err != nil {
		return nil, err
	}
	codec, err := s.h.codec(s.ctx, t)
	if err != nil {
		return nil, err
	}
	if !md.IsStreamingClient() {
		if _, err := encode(codec, md.Input(), f.Body); err != nil {
			return nil, err
		}
	}
	ctx, cancel := s.h.callContext(s.ctx, f.Metadata, f.TimeoutMS)
	st := &stream{
		id: f.ID, s: s, md: md, codec: codec, cancel: cancel, ctx: ctx,
		reqs: make(chan json.RawMessage, 64), start: time.Now(),
	}
	st.win.init(window)
	if st.st, err = t.conn.NewStream(ctx, md); err != nil {
		cancel()
		return nil, err
	}
	return st, nil
}

// control handles the page's frames for this call. Sends are queued
// (the queue holds 64; past that the page waits for "sent" frames).
func (st *stream) control(f inFrame) {
	switch f.T {
	case "send":
		body := f.Body
		if len(body) == 0 {
			body = json.RawMessage("{}")
		}
		st.queue(body)
	case "half":
		st.closeReqs()
	case "cancel":
		st.cancel()
	case "ack":
		st.win.release(f.N)
	}
}

func (st *stream) sendLoop() {
	defer st.s.wg.Done()
	for body := range st.reqs {
		wire, err := encode(st.codec, st.md.Input(), body)
		if err != nil {
			st.s.failed(st.id, err) // the call goes on; the page may send a fixed one
			continue
		}
		if err := st.st.Send(wire); err != nil {
			return // the call ended; the receiver reports how
		}
		st.s.send(outFrame{T: "sent", ID: st.id, N: st.sent.Add(1)})
	}
	st.st.CloseSend()
}

func (st *stream) recvLoop() {
	defer st.s.wg.Done()
	defer st.cancel()
	received, err := st.receive()
	res := finish(st.codec, err, time.Since(st.start))
	if err != nil && errors.Is(err, context.Canceled) || status.Code(err) == codes.Canceled {
		res.Code, res.CodeName = int(codes.Canceled), invoke.CodeName(codes.Canceled)
	}
	res.Trailers, res.Received = rowsOf(st.st.Trailer()), received
	st.s.mu.Lock()
	delete(st.s.streams, st.id)
	st.s.mu.Unlock()
	st.closeReqs()
	st.s.send(outFrame{T: "end", ID: st.id, Result: res, N: st.sent.Load()})
}

// receive reads responses until the call ends, sending each to the page
// as the window allows.
func (st *stream) receive() (int, error) {
	ctx := st.s.ctx
	n := 0
	header := false
	for {
		if !st.win.acquire(ctx, st.done()) {
			st.cancel()
			return n, status.FromContextError(st.ctx.Err()).Err()
		}
		msg, err := st.st.Recv()
		if !header {
			header = true
			if hdr, herr := st.st.Header(); herr == nil {
				st.s.send(outFrame{T: "header", ID: st.id, Rows: rowsOf(hdr)})
			}
		}
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		js, err := decodeOne(st.codec, st.md, msg)
		if err != nil {
			st.cancel()
			return n, err
		}
		n++
		if !st.s.send(outFrame{T: "msgs", ID: st.id, Items: []json.RawMessage{js}}) {
			st.cancel()
			return n, status.FromContextError(st.ctx.Err()).Err()
		}
	}
}

// done is closed when the call's context ends.
func (st *stream) done() <-chan struct{} { return st.ctx.Done() }

func (st *stream) queue(body json.RawMessage) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.closed {
		st.s.failed(st.id, errors.New("ui: the call is half-closed: no more requests"))
		return
	}
	select {
	case st.reqs <- body:
	default:
		st.s.failed(st.id, errors.New("ui: too many requests queued; wait for them to be sent"))
	}
}

func (st *stream) closeReqs() {
	st.mu.Lock()
	defer st.mu.Unlock()
	if !st.closed {
		st.closed = true
		close(st.reqs)
	}
}

// credit counts the messages the page may still be sent.
type credit struct {
	mu    sync.Mutex
	avail int
	wake  chan struct{}
}

func (c *credit) init(n int) {
	c.avail, c.wake = n, make(chan struct{}, 1)
}

// acquire takes one credit, waiting for the page's acks; false when ctx
// or done ends first.
func (c *credit) acquire(ctx context.Context, done <-chan struct{}) bool {
	for {
		c.mu.Lock()
		if c.avail > 0 {
			c.avail--
			c.mu.Unlock()
			return true
		}
		c.mu.Unlock()
		select {
		case <-c.wake:
		case <-ctx.Done():
			return false
		case <-done:
			return false
		}
	}
}

func (c *credit) release(n int) {
	if n <= 0 {
		return
	}
	c.mu.Lock()
	c.avail += n
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
}
