package lean

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	testv1 "github.com/rpckit/rpckit/internal/gen/rpckit/test/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/emptypb"
)

// deadlineReply is the Deadline probe's answer: ABORTED with the
// milliseconds left until the deadline the server sees.
func deadlineReply(ctx context.Context) error {
	d, ok := ctx.Deadline()
	if !ok {
		return status.Error(codes.FailedPrecondition, "no deadline")
	}
	return status.Errorf(codes.Aborted, "%d", time.Until(d).Milliseconds())
}

// The server sees the deadline as grpc-timeout; a server that runs out of
// it returns DEADLINE_EXCEEDED; a call cancelled by the client is reset,
// which cancels the handler.
func TestDeadlines(t *testing.T) {
	handlerErr := make(chan error, 1)
	p := func(method string, stream grpc.ServerStream) error {
		ctx := stream.Context()
		switch method {
		case "/probe.P/Deadline":
			return deadlineReply(ctx)
		case "/probe.P/Expire":
			// The server gives up on its own, 200 ms before the client's deadline.
			d, _ := ctx.Deadline()
			time.Sleep(time.Until(d) - 200*time.Millisecond)
			return status.Error(codes.DeadlineExceeded, "server gave up")
		case "/probe.P/Block":
			<-ctx.Done()
			handlerErr <- ctx.Err()
			return ctx.Err()
		}
		return status.Error(codes.Unimplemented, method)
	}
	addr, _ := startServer(t, p)
	c := dial(t, addr, Options{})
	empty := []Message{NewMessage(nil)}

	ctx, cancel := contextWithTimeout(t, 3*time.Second)
	err := c.Call(ctx, probeMethod(t, "Deadline"), empty, nil)
	cancel()
	var e *Error
	if !errors.As(err, &e) || e.Code != codes.Aborted {
		t.Fatalf("deadline probe: %v", err)
	}
	var ms int
	fmt.Sscan(e.Message, &ms)
	if ms <= 2000 || ms > 3000 {
		t.Fatalf("the server saw a deadline %d ms away, want about 3000", ms)
	}

	ctx, cancel = contextWithTimeout(t, time.Second)
	err = c.Call(ctx, probeMethod(t, "Expire"), empty, nil)
	cancel()
	if !errors.As(err, &e) || e.Code != codes.DeadlineExceeded || e.Message != "server gave up" {
		t.Fatalf("server-side deadline: %v", err)
	}

	ctx, cancel = context.WithCancel(testCtx(t))
	go func() { time.Sleep(100 * time.Millisecond); cancel() }()
	err = c.Call(ctx, probeMethod(t, "Block"), empty, nil)
	if status.Code(err) != codes.Canceled || !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled call: %v", err)
	}
	select {
	case herr := <-handlerErr:
		if !errors.Is(herr, context.Canceled) {
			t.Fatalf("the handler ended with %v, want canceled", herr)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the handler was not cancelled: no RST_STREAM reached the server")
	}
	// The connection is still good.
	if err := c.Call(testCtx(t), method(t, "Echo", false), empty, nil); err != nil {
		t.Fatal(err)
	}
}

func probeMethod(t testing.TB, name string) *Method {
	m, err := NewMethod("/probe.P/"+name, MethodOptions{ServerStreams: true})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Messages larger than a frame and than the windows, both ways, with the
// default windows and with the smallest ones.
func TestLargeMessages(t *testing.T) {
	addr, _ := startServer(t, nil, grpc.MaxRecvMsgSize(16<<20), grpc.MaxSendMsgSize(16<<20),
		grpc.InitialWindowSize(65535), grpc.InitialConnWindowSize(65535))
	for _, opts := range []Options{{}, {WindowSize: 65535, ConnWindowSize: 65535, MaxRecvMsgSize: 16 << 20}} {
		c := dial(t, addr, opts)
		for _, size := range []int{16 << 10, 100 << 10, 3 << 20} {
			if size > 4<<20 && opts.MaxRecvMsgSize == 0 {
				continue
			}
			name := strings.Repeat("abcdefgh", size/8)
			var got []*testv1.EchoResponse
			req := msg(t, &testv1.EchoRequest{Item: &testv1.Item{Name: name}})
			if err := c.Call(testCtx(t), method(t, "Echo", false), []Message{req}, collect(t, &got)); err != nil {
				t.Fatalf("%d bytes, windows %d/%d: %v", size, opts.WindowSize, opts.ConnWindowSize, err)
			}
			if len(got) != 1 || got[0].GetItem().GetName() != name {
				t.Fatalf("%d bytes: the echo differs", size)
			}
		}
		// Several large messages each way on one stream, several streams at once.
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				var reqs []Message
				for i := range 5 {
					reqs = append(reqs, msg(t, &testv1.EchoRequest{Number: int64(i), Item: &testv1.Item{Name: strings.Repeat("z", 200<<10)}}))
				}
				n := 0
				err := c.Call(testCtx(t), method(t, "Chat", true), reqs, &CallOptions{OnMessage: func(b []byte) {
					if len(b) < 200<<10 {
						t.Errorf("answer of %d bytes", len(b))
					}
					n++
				}})
				if err != nil || n != 5 {
					t.Errorf("chat: %v, %d answers", err, n)
				}
			})
		}
		wg.Wait()
	}
	// Past MaxRecvMsgSize: RESOURCE_EXHAUSTED, and the connection goes on.
	c := dial(t, addr, Options{MaxRecvMsgSize: 1000})
	req := msg(t, &testv1.EchoRequest{Item: &testv1.Item{Name: strings.Repeat("x", 2000)}})
	if err := c.Call(testCtx(t), method(t, "Echo", false), []Message{req}, nil); status.Code(err) != codes.ResourceExhausted {
		t.Fatalf("oversized response: %v", err)
	}
	if err := c.Call(testCtx(t), method(t, "Echo", false), []Message{NewMessage(nil)}, nil); err != nil {
		t.Fatal(err)
	}
}

// With MAX_CONCURRENT_STREAMS 2, ten calls at once all succeed, and the
// server never runs more than two.
func TestMaxConcurrentStreams(t *testing.T) {
	var running, most atomic.Int32
	p := func(method string, stream grpc.ServerStream) error {
		n := running.Add(1)
		defer running.Add(-1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		time.Sleep(30 * time.Millisecond)
		return stream.SendMsg(&emptypb.Empty{})
	}
	addr, _ := startServer(t, p, grpc.MaxConcurrentStreams(2))
	c := dial(t, addr, Options{})
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			if err := c.Call(testCtx(t), probeMethod(t, "Slow"), []Message{NewMessage(nil)}, nil); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if most.Load() != 2 {
		t.Fatalf("the server ran up to %d calls at once, want 2", most.Load())
	}
	// A queued call whose context ends leaves the queue.
	ctx, cancel := contextWithTimeout(t, 10*time.Millisecond)
	defer cancel()
	var errs [3]error
	for i := range errs {
		wg.Go(func() { errs[i] = c.Call(ctx, probeMethod(t, "Slow"), []Message{NewMessage(nil)}, nil) })
	}
	wg.Wait()
	for _, err := range errs {
		if status.Code(err) != codes.DeadlineExceeded {
			t.Fatalf("queued call: %v", err)
		}
	}
	if err := c.Call(testCtx(t), probeMethod(t, "Slow"), []Message{NewMessage(nil)}, nil); err != nil {
		t.Fatal(err)
	}
}

// On graceful stop, the server sends GOAWAY: calls in flight finish, new
// ones get no stream on that connection. When the server keeps listening
// (max connection age), calls go on over new connections.
func TestGoAway(t *testing.T) {
	addr, srv := startServer(t, nil)
	c := dial(t, addr, Options{})
	slow := msg(t, &testv1.EchoRequest{Delay: durationpb.New(300 * time.Millisecond), Number: 9})
	var got []*testv1.EchoResponse
	errc := make(chan error, 1)
	go func() { errc <- c.Call(testCtx(t), method(t, "Echo", false), []Message{slow}, collect(t, &got)) }()
	time.Sleep(100 * time.Millisecond)
	stopped := make(chan struct{})
	go func() { srv.GracefulStop(); close(stopped) }()
	if err := <-errc; err != nil || len(got) != 1 || got[0].GetNumber() != 9 {
		t.Fatalf("the call in flight during GOAWAY: %v %v", err, got)
	}
	<-stopped
	err := c.Call(testCtx(t), method(t, "Echo", false), []Message{NewMessage(nil)}, nil)
	if status.Code(err) != codes.Unavailable {
		t.Fatalf("a call after the server stopped: %v", err)
	}

	ln := &countingListener{Listener: listenTCP(t)}
	serveOn(t, ln, nil, grpc.KeepaliveParams(keepalive.ServerParameters{
		MaxConnectionAge: 100 * time.Millisecond, MaxConnectionAgeGrace: 5 * time.Second}))
	c = dial(t, ln.Addr().String(), Options{})
	var wg sync.WaitGroup
	var calls atomic.Int64
	end := time.Now().Add(700 * time.Millisecond)
	for range 8 {
		wg.Go(func() {
			for time.Now().Before(end) {
				if err := c.Call(testCtx(t), method(t, "Echo", false), []Message{NewMessage(nil)}, nil); err != nil {
					t.Error(err)
					return
				}
				calls.Add(1)
			}
		})
	}
	wg.Wait()
	if n := ln.accepted.Load(); n < 3 {
		t.Fatalf("%d connections for %d calls over 700 ms with a 100 ms connection age", n, calls.Load())
	}
}

type countingListener struct {
	net.Listener
	accepted atomic.Int32
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.accepted.Add(1)
	}
	return c, err
}

// Many calls of every kind at once on one connection (run with -race).
func TestConcurrentCalls(t *testing.T) {
	addr, _ := startServer(t, nil)
	c := dial(t, addr, Options{})
	kinds := []struct {
		m    *Method
		reqs []Message
		want int
	}{
		{method(t, "Echo", false), []Message{msg(t, &testv1.EchoRequest{Number: 1})}, 1},
		{method(t, "Count", true), []Message{msg(t, &testv1.CountRequest{Count: 3})}, 3},
		{method(t, "Sum", false), []Message{msg(t, &testv1.EchoRequest{Number: 1}), msg(t, &testv1.EchoRequest{Number: 2})}, 1},
		{method(t, "Chat", true), []Message{msg(t, &testv1.EchoRequest{Number: 1}), msg(t, &testv1.EchoRequest{Number: 2})}, 2},
	}
	var wg sync.WaitGroup
	for g := range 32 {
		wg.Go(func() {
			for i := range 50 {
				k := kinds[(g+i)%len(kinds)]
				n := 0
				var last []byte
				err := c.Call(testCtx(t), k.m, k.reqs, &CallOptions{OnMessage: func(b []byte) { n++; last = append(last[:0], b...) }})
				if err != nil || n != k.want {
					t.Errorf("%s: %v, %d messages", k.m.Path(), err, n)
					return
				}
				_ = bytes.Clone(last)
			}
		})
	}
	wg.Wait()
}

// CallOptions.Timeout bounds a call as a context deadline would: the
// server sees it as grpc-timeout (or ctx's, when earlier), a call past it
// ends with DEADLINE_EXCEEDED and is reset, each at its own time whatever
// the order the calls started in, and a call queued for a stream slot
// gives up at its deadline.
func TestCallTimeout(t *testing.T) {
	cancelled := make(chan error, 16)
	p := func(method string, stream grpc.ServerStream) error {
		ctx := stream.Context()
		switch method {
		case "/probe.P/Deadline":
			return deadlineReply(ctx)
		case "/probe.P/Block":
			<-ctx.Done()
			cancelled <- ctx.Err()
			return ctx.Err()
		case "/probe.P/Ignore":
			time.Sleep(time.Second)
			return nil
		}
		return status.Error(codes.Unimplemented, method)
	}
	addr, _ := startServer(t, p, grpc.MaxConcurrentStreams(3))
	c := dial(t, addr, Options{})
	empty := []Message{NewMessage(nil)}

	seen := func(ctx context.Context, timeout time.Duration) int {
		t.Helper()
		var e *Error
		err := c.Call(ctx, probeMethod(t, "Deadline"), empty, &CallOptions{Timeout: timeout})
		if !errors.As(err, &e) || e.Code != codes.Aborted {
			t.Fatalf("deadline probe: %v", err)
		}
		var ms int
		fmt.Sscan(e.Message, &ms)
		return ms
	}
	if ms := seen(context.Background(), 3*time.Second); ms <= 2000 || ms > 3000 {
		t.Fatalf("Timeout 3s: the server saw a deadline %d ms away", ms)
	}
	ctx, cancel := contextWithTimeout(t, time.Second)
	if ms := seen(ctx, 3*time.Second); ms <= 500 || ms > 1000 {
		t.Fatalf("ctx 1s, Timeout 3s: the server saw a deadline %d ms away", ms)
	}
	cancel()
	ctx, cancel = contextWithTimeout(t, 10*time.Second)
	if ms := seen(ctx, 2*time.Second); ms <= 1000 || ms > 2000 {
		t.Fatalf("ctx 10s, Timeout 2s: the server saw a deadline %d ms away", ms)
	}
	cancel()

	// A server that ignores the deadline: the client ends the call.
	start := time.Now()
	err := c.Call(testCtx(t), probeMethod(t, "Ignore"), empty, &CallOptions{Timeout: 100 * time.Millisecond})
	if took := time.Since(start); !errors.Is(err, context.DeadlineExceeded) || status.Code(err) != codes.DeadlineExceeded || took > 900*time.Millisecond {
		t.Fatalf("a call past its Timeout, after %v: %v", took, err)
	}

	// Three calls fill the server's stream slots, started in an order
	// other than their deadlines'; a fourth waits for a slot and gives up
	// first.
	timeouts := []time.Duration{300 * time.Millisecond, 100 * time.Millisecond, 200 * time.Millisecond, 50 * time.Millisecond}
	took := make([]time.Duration, len(timeouts))
	ended := make([]time.Time, len(timeouts))
	errs := make([]error, len(timeouts))
	var wg sync.WaitGroup
	for i, d := range timeouts {
		if i == len(timeouts)-1 {
			waitActive(t, c, 3)
		}
		wg.Go(func() {
			start := time.Now()
			errs[i] = c.Call(testCtx(t), probeMethod(t, "Block"), empty, &CallOptions{Timeout: d})
			ended[i] = time.Now()
			took[i] = ended[i].Sub(start)
		})
	}
	wg.Wait()
	if !(ended[3].Before(ended[1]) && ended[1].Before(ended[2]) && ended[2].Before(ended[0])) {
		t.Fatalf("calls with Timeouts %v took %v: not in the order of their deadlines", timeouts, took)
	}
	for i, err := range errs {
		// The server may give up first, on the grpc-timeout it saw.
		if status.Code(err) != codes.DeadlineExceeded {
			t.Fatalf("call %d with Timeout %v: %v", i, timeouts[i], err)
		}
		if took[i] < timeouts[i] || took[i] > timeouts[i]+time.Second {
			t.Fatalf("call %d with Timeout %v ended after %v", i, timeouts[i], took[i])
		}
	}
	for range 3 {
		select {
		case err := <-cancelled:
			if !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("the handler ended with %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("a handler did not end: the call was not reset")
		}
	}
	// The connection is still good, and a call that ends in time is OK.
	if err := c.Call(testCtx(t), method(t, "Echo", false), empty, &CallOptions{Timeout: 5 * time.Second}); err != nil {
		t.Fatal(err)
	}
	tr := c.cur.Load()
	tr.mu.Lock()
	left := len(tr.deadlines)
	tr.mu.Unlock()
	if left != 0 {
		t.Fatalf("%d streams left in the deadline heap", left)
	}
}

// waitActive waits until c's connection has n streams open.
func waitActive(t *testing.T, c *Conn, n int) {
	t.Helper()
	for start := time.Now(); time.Since(start) < 5*time.Second; time.Sleep(time.Millisecond) {
		tr := c.cur.Load()
		tr.mu.Lock()
		k := tr.streams.len()
		tr.mu.Unlock()
		if k >= n {
			return
		}
	}
	t.Fatalf("fewer than %d streams open", n)
}

// Calls that share a ctx wait under one watch of its Done channel: when
// the ctx ends, each ends with its error and is reset, and the watch goes;
// calls that bring a ctx of their own are not watched.
func TestSharedContext(t *testing.T) {
	blocked := make(chan struct{}, 64)
	p := func(method string, stream grpc.ServerStream) error {
		blocked <- struct{}{}
		<-stream.Context().Done()
		return stream.Context().Err()
	}
	addr, _ := startServer(t, p)
	c := dial(t, addr, Options{})
	empty := []Message{NewMessage(nil)}
	watches := func() int {
		tr := c.cur.Load()
		tr.mu.Lock()
		defer tr.mu.Unlock()
		return len(tr.watches)
	}
	for range 3 {
		ctx, cancel := context.WithTimeout(testCtx(t), time.Second)
		if err := c.Call(ctx, method(t, "Echo", false), empty, nil); err != nil {
			t.Fatal(err)
		}
		cancel()
	}
	if n := watches(); n != 0 {
		t.Fatalf("%d watches after calls with contexts of their own", n)
	}

	for _, end := range []string{"cancel", "deadline"} {
		ctx, cancel := context.WithCancel(testCtx(t))
		if end == "deadline" {
			ctx, cancel = context.WithTimeout(testCtx(t), 300*time.Millisecond)
		}
		// Two calls in a row bring the ctx: it is watched from then on.
		for range 2 {
			if err := c.Call(ctx, method(t, "Echo", false), empty, nil); err != nil {
				t.Fatal(err)
			}
		}
		if n := watches(); n != 1 {
			t.Fatalf("%d watches, want 1", n)
		}
		const n = 8
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() { errs[i] = c.Call(ctx, probeMethod(t, "Block"), empty, nil) })
		}
		for range n {
			<-blocked
		}
		if end == "cancel" {
			cancel()
		}
		wg.Wait()
		cancel()
		// A cancelled call ends on the client, with the ctx's error as its
		// cause. At a deadline the server, which got it as grpc-timeout,
		// may answer DEADLINE_EXCEEDED before the client's own timer fires.
		want := codes.Canceled
		if end == "deadline" {
			want = codes.DeadlineExceeded
		}
		for _, err := range errs {
			if status.Code(err) != want || end == "cancel" && !errors.Is(err, context.Canceled) {
				t.Fatalf("%s: a call ended with %v", end, err)
			}
		}
		for start := time.Now(); watches() != 0; time.Sleep(time.Millisecond) {
			if time.Since(start) > 5*time.Second {
				t.Fatalf("%s: the watch stayed", end)
			}
		}
	}
	if err := c.Call(testCtx(t), method(t, "Echo", false), empty, nil); err != nil {
		t.Fatal(err)
	}
}
