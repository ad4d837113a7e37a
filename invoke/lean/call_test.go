package lean

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	testv1 "github.com/rpckit/rpckit/internal/gen/rpckit/test/v1"
	"github.com/rpckit/rpckit/internal/rpctest"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"
)

func TestUnary(t *testing.T) {
	addr, _ := startServer(t, nil)
	c := dial(t, addr, Options{})
	m := method(t, "Echo", false)
	for i := range 5 { // the first call indexes the headers; later ones refer to them
		var got []*testv1.EchoResponse
		req := msg(t, &testv1.EchoRequest{Number: int64(i), Item: &testv1.Item{Name: "n" + strings.Repeat("x", i)}})
		if err := c.Call(testCtx(t), m, []Message{req}, collect(t, &got)); err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].GetNumber() != int64(i) || got[0].GetItem().GetName() != "n"+strings.Repeat("x", i) {
			t.Fatalf("call %d: got %v", i, got)
		}
	}
}

func TestServerStreaming(t *testing.T) {
	addr, _ := startServer(t, nil)
	c := dial(t, addr, Options{})
	var got []*testv1.EchoResponse
	req := msg(t, &testv1.CountRequest{Count: 7})
	if err := c.Call(testCtx(t), method(t, "Count", true), []Message{req}, collect(t, &got)); err != nil {
		t.Fatal(err)
	}
	if len(got) != 7 {
		t.Fatalf("got %d messages, want 7", len(got))
	}
	for i, r := range got {
		if r.GetNumber() != int64(i+1) {
			t.Fatalf("message %d is number %d", i, r.GetNumber())
		}
	}
	// No response message at all is fine for a stream.
	if err := c.Call(testCtx(t), method(t, "Count", true), []Message{msg(t, &testv1.CountRequest{})}, nil); err != nil {
		t.Fatal(err)
	}
}

func TestClientStreaming(t *testing.T) {
	addr, _ := startServer(t, nil)
	c := dial(t, addr, Options{})
	m := method(t, "Sum", false)
	reqs := []Message{msg(t, &testv1.EchoRequest{Number: 1}), msg(t, &testv1.EchoRequest{Number: 2}), msg(t, &testv1.EchoRequest{Number: 39})}
	for _, interval := range []time.Duration{0, 30 * time.Millisecond} {
		var got []*testv1.SumResponse
		opts := collect(t, &got)
		opts.Interval = interval
		start := time.Now()
		if err := c.Call(testCtx(t), m, reqs, opts); err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].GetTotal() != 42 || got[0].GetMessages() != 3 {
			t.Fatalf("interval %v: got %v", interval, got)
		}
		if took := time.Since(start); took < 2*interval {
			t.Fatalf("interval %v: the call took %v, less than its two pauses", interval, took)
		}
	}
	// No request message: the stream is half-closed with its headers.
	var got []*testv1.SumResponse
	if err := c.Call(testCtx(t), m, nil, collect(t, &got)); err != nil || len(got) != 1 || got[0].GetMessages() != 0 {
		t.Fatalf("empty stream: %v, %v", err, got)
	}
}

func TestBidi(t *testing.T) {
	addr, _ := startServer(t, nil)
	c := dial(t, addr, Options{})
	var reqs []Message
	for i := range 10 {
		reqs = append(reqs, msg(t, &testv1.EchoRequest{Number: int64(i)}))
	}
	var got []*testv1.EchoResponse
	opts := collect(t, &got)
	opts.Interval = time.Millisecond
	if err := c.Call(testCtx(t), method(t, "Chat", true), reqs, opts); err != nil {
		t.Fatal(err)
	}
	if len(got) != 10 {
		t.Fatalf("got %d answers, want 10", len(got))
	}
	for i, r := range got {
		if r.GetNumber() != int64(i) {
			t.Fatalf("answer %d is for %d", i, r.GetNumber())
		}
	}
}

func TestStatusErrors(t *testing.T) {
	addr, _ := startServer(t, nil)
	c := dial(t, addr, Options{})
	const text = "not here: 100% sure ✓\nreally"
	cases := []struct {
		name string
		m    *Method
		req  Message
		code codes.Code
		msgs int
	}{
		{"unary", method(t, "Echo", false), msg(t, &testv1.EchoRequest{FailCode: 5, FailMessage: text}), codes.NotFound, 0},
		{"stream at once", method(t, "Count", true), msg(t, &testv1.CountRequest{Count: 3, FailCode: 7}), codes.PermissionDenied, 0},
		{"stream midway", method(t, "Count", true), msg(t, &testv1.CountRequest{Count: 5, FailAfter: 2, FailCode: 14}), codes.Unavailable, 2},
		{"client stream", method(t, "Sum", false), msg(t, &testv1.EchoRequest{FailCode: 3, FailMessage: text}), codes.InvalidArgument, 0},
		{"unknown method", method(t, "Nope", false), msg(t, &testv1.EchoRequest{}), codes.Unimplemented, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n := 0
			err := c.Call(testCtx(t), tc.m, []Message{tc.req}, &CallOptions{OnMessage: func([]byte) { n++ }})
			var e *Error
			if !errors.As(err, &e) || e.Code != tc.code {
				t.Fatalf("got %v, want code %v", err, tc.code)
			}
			if n != tc.msgs {
				t.Fatalf("got %d messages before the error, want %d", n, tc.msgs)
			}
			st := status.Convert(err)
			if st.Code() != tc.code {
				t.Fatalf("status.Convert: %v", st)
			}
			if tc.code == codes.NotFound || tc.code == codes.InvalidArgument {
				if e.Message != text {
					t.Fatalf("message %q, want %q", e.Message, text)
				}
				if len(st.Details()) != 2 {
					t.Fatalf("details: %v", st.Details())
				}
				if info, ok := st.Details()[0].(*errdetails.ErrorInfo); !ok || info.GetReason() != "REQUESTED" {
					t.Fatalf("details: %v", st.Details())
				}
			}
		})
	}
}

func TestMetadata(t *testing.T) {
	addr, _ := startServer(t, nil)
	c := dial(t, addr, Options{})
	m, err := NewMethod("/rpckit.test.v1.Test/Echo", MethodOptions{Metadata: metadata.Pairs(
		"x-echo-a", "1", "x-plain", "two", "x-raw-bin", "\x01\x02~")})
	if err != nil {
		t.Fatal(err)
	}
	var got []*testv1.EchoResponse
	opts := collect(t, &got)
	var header, trailer metadata.MD
	opts.Header, opts.Trailer = &header, &trailer
	if err := c.Call(testCtx(t), m, []Message{msg(t, &testv1.EchoRequest{})}, opts); err != nil {
		t.Fatal(err)
	}
	want := "x-echo-a=1 x-plain=two x-raw-bin=\x01\x02~"
	if len(got) != 1 || strings.Join(got[0].GetMetadata(), " ") != want {
		t.Fatalf("the server saw %q, want %q", got[0].GetMetadata(), want)
	}
	if header.Get("x-echo-a")[0] != "1" || trailer.Get("x-trailer-a")[0] != "1" {
		t.Fatalf("header %v, trailer %v", header, trailer)
	}
	for _, bad := range []string{":path", "te", "grpc-timeout", "a b", ""} {
		if _, err := NewMethod("/a.B/C", MethodOptions{Metadata: metadata.MD{bad: {"x"}}}); err == nil {
			t.Errorf("metadata key %q accepted", bad)
		}
	}
	for _, bad := range []string{"a.B/C", "/a.B", "/a.B/C/", "/a/b/c"} {
		if _, err := NewMethod(bad, MethodOptions{}); err == nil {
			t.Errorf("path %q accepted", bad)
		}
	}
}

func TestTLSAndUnixSocket(t *testing.T) {
	certs, err := rpctest.MakeCerts(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, mtls := range []bool{false, true} {
		srv, err := rpctest.Start(rpctest.Options{TLS: certs.ServerTLS(mtls)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(srv.Stop)
		cfg := clientTLS(t, certs, mtls)
		c := dial(t, srv.Addr, Options{TLS: cfg})
		if err := c.Call(testCtx(t), method(t, "Echo", false), []Message{msg(t, &testv1.EchoRequest{})}, nil); err != nil {
			t.Fatalf("mtls %v: %v", mtls, err)
		}
	}
	// Without the client certificate, mTLS fails to connect.
	srv, err := rpctest.Start(rpctest.Options{TLS: certs.ServerTLS(true)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	if c, err := Dial(testCtx(t), srv.Addr, Options{TLS: clientTLS(t, certs, false)}); err == nil {
		err = c.Call(testCtx(t), method(t, "Echo", false), []Message{msg(t, &testv1.EchoRequest{})}, nil)
		c.Close()
		if err == nil {
			t.Fatal("a call without the client certificate worked")
		}
	}

	sock := filepath.Join(t.TempDir(), "s.sock")
	usrv, err := rpctest.Start(rpctest.Options{UnixSocket: sock})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(usrv.Stop)
	c := dial(t, usrv.Addr, Options{})
	if err := c.Call(testCtx(t), method(t, "Echo", false), []Message{msg(t, &testv1.EchoRequest{})}, nil); err != nil {
		t.Fatal(err)
	}
}

func TestDialErrors(t *testing.T) {
	ln := listenTCP(t)
	addr := ln.Addr().String()
	ln.Close()
	_, err := Dial(testCtx(t), addr, Options{Plaintext: true, ConnectTimeout: 2 * time.Second})
	if err == nil || !strings.Contains(err.Error(), addr) {
		t.Fatalf("dial of a closed port: %v", err)
	}
	// A TLS client against a plaintext server fails the handshake.
	paddr, _ := startServer(t, nil)
	_, err = Dial(testCtx(t), paddr, Options{ConnectTimeout: 2 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "tls") {
		t.Fatalf("tls to plaintext: %v", err)
	}
}

func TestEmptyAndDeadlineOnQueuedCall(t *testing.T) {
	addr, _ := startServer(t, nil)
	c := dial(t, addr, Options{})
	// An empty request message is valid protobuf.
	if err := c.Call(testCtx(t), method(t, "Echo", false), []Message{NewMessage(nil)}, nil); err != nil {
		t.Fatal(err)
	}
	req := msg(t, &testv1.EchoRequest{Delay: durationpb.New(5 * time.Second)})
	ctx, cancel := contextWithTimeout(t, 50*time.Millisecond)
	defer cancel()
	err := c.Call(ctx, method(t, "Echo", false), []Message{req}, nil)
	if status.Code(err) != codes.DeadlineExceeded {
		t.Fatalf("got %v, want DEADLINE_EXCEEDED", err)
	}
}
