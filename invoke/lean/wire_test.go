package lean

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Every way a response can end, answered by the fake server to a unary
// call.
func TestResponseEndings(t *testing.T) {
	cases := []struct {
		name    string
		answer  func(fc *fakeConn, id uint32)
		code    codes.Code
		message string
	}{
		{"trailers only", func(fc *fakeConn, id uint32) {
			fc.headers(id, true, ":status", "200", "content-type", "application/grpc", "grpc-status", "5", "grpc-message", "no %25 such%20thing%E2%9C%93")
		}, codes.NotFound, "no % such thing✓"},
		{"trailers only, HTTP error with a status", func(fc *fakeConn, id uint32) {
			fc.headers(id, true, ":status", "503", "content-type", "application/grpc", "grpc-status", "8")
		}, codes.ResourceExhausted, ""},
		{"HTTP 503, not gRPC", func(fc *fakeConn, id uint32) {
			fc.headers(id, true, ":status", "503", "content-type", "text/plain")
		}, codes.Unavailable, "unexpected HTTP status code received from server: 503 (Service Unavailable)"},
		{"HTTP 404 with a body", func(fc *fakeConn, id uint32) {
			fc.headers(id, false, ":status", "404", "content-type", "text/html")
			fc.fr.WriteData(id, true, []byte("<html>not found</html>"))
		}, codes.Unimplemented, "unexpected HTTP status code received from server: 404 (Not Found)"},
		{"no grpc-status", func(fc *fakeConn, id uint32) {
			fc.headers(id, false, ":status", "200", "content-type", "application/grpc")
			fc.data(id, []byte{})
			fc.headers(id, true, "x-other", "1")
		}, codes.Internal, "server closed the stream without sending a grpc-status trailer"},
		{"no trailers", func(fc *fakeConn, id uint32) {
			fc.headers(id, false, ":status", "200", "content-type", "application/grpc")
			fc.fr.WriteData(id, true, []byte{0, 0, 0, 0, 0})
		}, codes.Internal, "server closed the stream without sending trailers"},
		{"two messages for a unary call", func(fc *fakeConn, id uint32) {
			fc.reply(id, []byte{8, 1}, []byte{8, 2})
		}, codes.Internal, "cardinality violation: a unary response has more than one message"},
		{"no message for a unary call", func(fc *fakeConn, id uint32) {
			fc.reply(id)
		}, codes.Internal, "cardinality violation: a unary response has 0 messages"},
		{"compressed message", func(fc *fakeConn, id uint32) {
			fc.headers(id, false, ":status", "200", "content-type", "application/grpc")
			fc.fr.WriteData(id, false, []byte{1, 0, 0, 0, 1, 8})
			fc.headers(id, true, "grpc-status", "0")
		}, codes.Internal, "compressed response message, and no compression was asked for"},
		{"reset", func(fc *fakeConn, id uint32) {
			fc.fr.WriteRSTStream(id, http2.ErrCodeEnhanceYourCalm)
		}, codes.ResourceExhausted, "stream terminated by RST_STREAM with error code: ENHANCE_YOUR_CALM"},
		{"malformed grpc-status", func(fc *fakeConn, id uint32) {
			fc.headers(id, true, ":status", "200", "content-type", "application/grpc", "grpc-status", "x1")
		}, codes.Unknown, `malformed grpc-status: "x1"`},
		{"OK", func(fc *fakeConn, id uint32) {
			fc.reply(id, []byte{8, 1})
		}, codes.OK, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			addr := startFake(t, nil, func(fc *fakeConn) {
				hf, _, err := fc.request()
				if err != nil {
					return
				}
				tc.answer(fc, hf.StreamID)
				fc.next(false) // until the client goes
			})
			c := dial(t, addr, Options{})
			err := c.Call(testCtx(t), method(t, "Echo", false), []Message{NewMessage(nil)}, nil)
			st := status.Convert(err)
			if st.Code() != tc.code || st.Message() != tc.message {
				t.Fatalf("got %v, want %v %q", err, tc.code, tc.message)
			}
		})
	}
}

// The client cancels with RST_STREAM(CANCEL) and sends its deadline as
// grpc-timeout; a refused stream is made again; pings are answered.
func TestClientFrames(t *testing.T) {
	got := make(chan string, 10)
	addr := startFake(t, nil, func(fc *fakeConn) {
		hf, _, err := fc.request()
		if err != nil {
			return
		}
		got <- "timeout " + field(hf, "grpc-timeout")
		fc.fr.WritePing(false, [8]byte{1, 2, 3, 4, 5, 6, 7, 8})
		for {
			f, err := fc.next(false)
			if err != nil {
				return
			}
			switch f := f.(type) {
			case *http2.PingFrame:
				got <- "ping ack " + string(rune('0'+f.Data[7]))
			case *http2.RSTStreamFrame:
				got <- "reset " + f.ErrCode.String()
			case *http2.MetaHeadersFrame:
				if f.StreamID == 3 {
					fc.fr.WriteRSTStream(3, http2.ErrCodeRefusedStream)
					continue
				}
				fc.reply(f.StreamID, []byte{})
			}
		}
	})
	c := dial(t, addr, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	go func() {
		if !strings.HasPrefix(<-got, "timeout 8999") { // rounded up from just under 90 s in ms
			t.Error("grpc-timeout is not about 90 s")
		}
		if g := <-got; g != "ping ack 8" {
			t.Errorf("got %q, want the ping acknowledged", g)
		}
		cancel()
	}()
	err := c.Call(ctx, method(t, "Echo", false), []Message{NewMessage(nil)}, nil)
	if status.Code(err) != codes.Canceled {
		t.Fatalf("cancelled call: %v", err)
	}
	if g := <-got; g != "reset CANCEL" {
		t.Fatalf("got %q, want a reset", g)
	}
	// Stream 3 is refused; the call is made again on stream 5.
	if err := c.Call(testCtx(t), method(t, "Echo", false), []Message{NewMessage(nil)}, nil); err != nil {
		t.Fatal(err)
	}
}

// A GOAWAY below a stream's id: that call goes to a new connection.
func TestGoAwayRetry(t *testing.T) {
	addr := startFake(t, nil, func(fc *fakeConn) {
		for {
			f, err := fc.next(false)
			if err != nil {
				return
			}
			hf, ok := f.(*http2.MetaHeadersFrame)
			if !ok {
				continue
			}
			if fc.n == 1 && hf.StreamID == 3 {
				fc.fr.WriteGoAway(1, http2.ErrCodeNo, nil)
				continue
			}
			fc.reply(hf.StreamID, []byte{byte(fc.n)})
		}
	})
	c := dial(t, addr, Options{})
	var conns []byte
	opts := &CallOptions{OnMessage: func(b []byte) { conns = append(conns, b[0]) }}
	for range 3 {
		if err := c.Call(testCtx(t), method(t, "Echo", false), []Message{NewMessage(nil)}, opts); err != nil {
			t.Fatal(err)
		}
	}
	if string(conns) != "\x01\x02\x02" {
		t.Fatalf("answered by connections %v, want 1 2 2", conns)
	}
}

// The server's MAX_CONCURRENT_STREAMS is never exceeded: the fake server
// counts the streams open on its side.
func TestStreamLimitOnTheWire(t *testing.T) {
	var most atomic.Int32
	addr := startFake(t, []http2.Setting{{ID: http2.SettingMaxConcurrentStreams, Val: 3}}, func(fc *fakeConn) {
		var open []uint32
		for {
			f, err := fc.next(false)
			if err != nil {
				return
			}
			switch f := f.(type) {
			case *http2.MetaHeadersFrame:
				open = append(open, f.StreamID)
				if n := int32(len(open)); n > most.Load() {
					most.Store(n)
				}
			case *http2.RSTStreamFrame: // the calls that timed out
				open = slices.DeleteFunc(open, func(id uint32) bool { return id == f.StreamID })
			}
			if len(open) == 3 { // answer the oldest only when the client is at the limit
				fc.reply(open[0], []byte{})
				open = open[1:]
			}
		}
	})
	c := dial(t, addr, Options{})
	var wg sync.WaitGroup
	var done atomic.Int32
	for range 20 {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel()
			if err := c.Call(ctx, method(t, "Echo", false), []Message{NewMessage(nil)}, nil); err == nil {
				done.Add(1)
			}
		})
	}
	wg.Wait()
	// The last two calls wait for a third that never comes; they time out.
	if most.Load() != 3 || done.Load() < 18 {
		t.Fatalf("at most %d streams open, %d calls done", most.Load(), done.Load())
	}
}

// Request headers: correct on every call, indexed after the first; split
// into CONTINUATION frames when large; literal when the server allows no
// dynamic table.
func TestRequestHeaders(t *testing.T) {
	for _, table := range []uint32{4096, 0} {
		type seen struct {
			path, ua, md string
			size         uint32
		}
		got := make(chan seen, 10)
		settings := []http2.Setting{{ID: http2.SettingHeaderTableSize, Val: table}}
		addr := startFake(t, settings, func(fc *fakeConn) {
			for {
				hf, _, err := fc.request()
				if err != nil {
					return
				}
				got <- seen{field(hf, ":path"), field(hf, "user-agent"), field(hf, "x-big"), hf.HeadersFrame.Length}
				fc.reply(hf.StreamID, []byte{})
			}
		})
		c := dial(t, addr, Options{UserAgent: "ua/1"})
		big := strings.Repeat("v", 40000)
		m1 := method(t, "Echo", false)
		m2, _ := NewMethod("/x.Y/Z", MethodOptions{Metadata: map[string][]string{"x-big": {big}}})
		var sizes []uint32
		for i, m := range []*Method{m1, m1, m1, m2, m2, m1} {
			if err := c.Call(context.Background(), m, []Message{NewMessage(nil)}, nil); err != nil {
				t.Fatal(err)
			}
			s := <-got
			if s.path != m.Path() || s.ua != "ua/1" || (m == m2) != (s.md == big) {
				t.Fatalf("table %d, call %d: the server read %q %q and %d bytes of x-big", table, i, s.path, s.ua, len(s.md))
			}
			sizes = append(sizes, s.size)
		}
		if table > 0 && !(sizes[1] < sizes[0]/2 && sizes[2] == sizes[1] && sizes[5] <= sizes[1]) {
			t.Fatalf("header block sizes %v: later calls should refer to the table", sizes)
		}
		if table == 0 && sizes[1] < sizes[0]-1 {
			t.Fatalf("header block sizes %v with no table", sizes)
		}
	}
}

func TestErrorValues(t *testing.T) {
	var e *Error
	if err := ctxError(context.DeadlineExceeded); !errors.As(err, &e) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatal("deadline errors unwrap to the context's")
	}
	if got := decodeMessage("a%2"); got != "a%2" {
		t.Fatalf("a truncated escape is kept: %q", got)
	}
	for d, want := range map[time.Duration]string{
		0: "1n", 5 * time.Nanosecond: "5n", time.Second: "1000000u", 99 * time.Millisecond: "99000000n",
		100 * time.Second: "100000m", 1000 * time.Hour: "3600000S", 2e5 * time.Hour: "12000000M", 2e6 * time.Hour: "2000000H",
	} {
		if got := string(appendTimeout(nil, d)); got != want {
			t.Errorf("timeout %v: %q, want %q", d, got, want)
		}
	}
}

// Keepalive: a server that answers pings keeps the connection; one that
// does not loses it, and the call on it fails.
func TestKeepalive(t *testing.T) {
	for _, answer := range []bool{true, false} {
		pings := make(chan struct{}, 100)
		addr := startFake(t, nil, func(fc *fakeConn) {
			for {
				f, err := fc.next(false)
				if err != nil {
					return
				}
				if p, ok := f.(*http2.PingFrame); ok && !p.IsAck() {
					pings <- struct{}{}
					if answer {
						fc.fr.WritePing(true, p.Data)
					}
				}
			}
		})
		c := dial(t, addr, Options{Keepalive: 20 * time.Millisecond, KeepaliveTimeout: 100 * time.Millisecond})
		ctx, cancel := contextWithTimeout(t, 400*time.Millisecond)
		err := c.Call(ctx, method(t, "Echo", false), []Message{NewMessage(nil)}, nil)
		cancel()
		if answer && (status.Code(err) != codes.DeadlineExceeded || len(pings) < 5) {
			t.Fatalf("pings answered: %v after %d pings", err, len(pings))
		}
		if !answer && (status.Code(err) != codes.Unavailable || !strings.Contains(err.Error(), "keepalive")) {
			t.Fatalf("pings unanswered: %v", err)
		}
	}
}
