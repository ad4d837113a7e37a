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

// The server sees the deadline as grpc-timeout; a server that runs out of
// it returns DEADLINE_EXCEEDED; a call cancelled by the client is reset,
// which cancels the handler.
func TestDeadlines(t *testing.T) {
	handlerErr := make(chan error, 1)
	p := func(method string, stream grpc.ServerStream) error {
		ctx := stream.Context()
		switch method {
		case "/probe.P/Deadline":
			d, ok := ctx.Deadline()
			if !ok {
				return status.Error(codes.FailedPrecondition, "no deadline")
			}
			return status.Errorf(codes.OK+codes.Aborted, "%d", time.Until(d).Milliseconds())
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
