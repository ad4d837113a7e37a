package gwtest_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/rpckit/rpckit/gateway"
	gwtestv1 "github.com/rpckit/rpckit/internal/gen/rpckit/gwtest/v1"
	testv1 "github.com/rpckit/rpckit/internal/gen/rpckit/test/v1"
	"github.com/rpckit/rpckit/internal/rpctest"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/protobuf/types/known/durationpb"
)

// The Connect interop tests: connect-go's clients, with the proto and JSON
// codecs, over HTTP/1.1 and h2c, against the gateway in front of grpc-go.

// transport is an HTTP version a Connect client speaks to the gateway.
type transport struct {
	name   string
	h2c    bool
	client func() (*http.Client, *seen)
}

// seen records what went over the wire of the last exchange.
type seen struct {
	mu                sync.Mutex
	method            string // of the request
	encoding, connEnc string // Content-Encoding, Connect-Content-Encoding of the response
	proto             int    // the response's HTTP major version
}

type recorder struct {
	rt   http.RoundTripper
	seen *seen
}

func (r recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.rt.RoundTrip(req)
	r.seen.mu.Lock()
	defer r.seen.mu.Unlock()
	r.seen.method = req.Method
	if resp != nil {
		r.seen.encoding = resp.Header.Get("Content-Encoding")
		r.seen.connEnc = resp.Header.Get("Connect-Content-Encoding")
		r.seen.proto = resp.ProtoMajor
	}
	return resp, err
}

func newTransport(h2c bool) (*http.Client, *seen) {
	tr := &http.Transport{}
	if h2c {
		p := new(http.Protocols)
		p.SetUnencryptedHTTP2(true)
		tr.Protocols = p
	}
	s := &seen{}
	return &http.Client{Transport: recorder{tr, s}}, s
}

var transports = []transport{
	{"http1", false, func() (*http.Client, *seen) { return newTransport(false) }},
	{"h2c", true, func() (*http.Client, *seen) { return newTransport(true) }},
}

// codecs are the client options of each codec.
var codecs = map[string][]connect.ClientOption{"proto": nil, "json": {connect.WithProtoJSON()}}

// serveBoth serves h over HTTP/1.1 and h2c until the test ends.
func serveBoth(t *testing.T, h http.Handler) string {
	t.Helper()
	hs := httptest.NewUnstartedServer(h)
	p := new(http.Protocols)
	p.SetHTTP1(true)
	p.SetUnencryptedHTTP2(true)
	hs.Config.Protocols = p
	hs.Start()
	t.Cleanup(hs.Close)
	return hs.URL
}

// forEach runs f for every transport and codec.
func forEach(t *testing.T, f func(t *testing.T, tr transport, opts []connect.ClientOption)) {
	for _, tr := range transports {
		for codec, opts := range codecs {
			t.Run(tr.name+"/"+codec, func(t *testing.T) { f(t, tr, opts) })
		}
	}
}

func testGateway(t *testing.T, opts gateway.Options) string {
	g, _ := rpctest.NewGateway(t, opts)
	return serveBoth(t, g)
}

func TestConnectUnaryInterop(t *testing.T) {
	url := testGateway(t, gateway.Options{Headers: []string{"X-Echo-A"}})
	forEach(t, func(t *testing.T, tr transport, opts []connect.ClientOption) {
		hc, seen := tr.client()
		c := connect.NewClient[testv1.EchoRequest, testv1.EchoResponse](hc, url+"/rpckit.test.v1.Test/Echo", opts...)
		req := connect.NewRequest(&testv1.EchoRequest{Item: &testv1.Item{Name: "a", Tags: []string{"x"}}, Number: 7})
		req.Header().Set("X-Echo-A", "v")
		resp, err := c.CallUnary(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Msg.GetNumber() != 7 || resp.Msg.GetItem().GetTags()[0] != "x" {
			t.Errorf("response %v", resp.Msg)
		}
		if resp.Header().Get("X-Echo-A") != "v" || resp.Trailer().Get("X-Trailer-A") != "v" {
			t.Errorf("header %v, trailer %v", resp.Header(), resp.Trailer())
		}
		if want := map[bool]int{false: 1, true: 2}[tr.h2c]; seen.proto != want {
			t.Errorf("HTTP/%d, want HTTP/%d", seen.proto, want)
		}
	})
}

func TestConnectErrorInterop(t *testing.T) {
	url := testGateway(t, gateway.Options{})
	forEach(t, func(t *testing.T, tr transport, opts []connect.ClientOption) {
		hc, _ := tr.client()
		c := connect.NewClient[testv1.EchoRequest, testv1.EchoResponse](hc, url+"/rpckit.test.v1.Test/Echo", opts...)
		_, err := c.CallUnary(context.Background(), connect.NewRequest(&testv1.EchoRequest{FailCode: 7, FailMessage: "keep out"}))
		var ce *connect.Error
		if !errors.As(err, &ce) || ce.Code() != connect.CodePermissionDenied || ce.Message() != "keep out" {
			t.Fatalf("error %v, want permission_denied: keep out", err)
		}
		if len(ce.Details()) != 2 {
			t.Fatalf("%d details, want 2", len(ce.Details()))
		}
		v, err := ce.Details()[0].Value()
		info, ok := v.(*errdetails.ErrorInfo)
		if err != nil || !ok || info.GetReason() != "REQUESTED" {
			t.Errorf("detail %v: %v", v, err)
		}
		// Deadlines: the client's own travels as Connect-Timeout-Ms.
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err = c.CallUnary(ctx, connect.NewRequest(&testv1.EchoRequest{Delay: durationpb.New(10 * time.Second)}))
		if connect.CodeOf(err) != connect.CodeDeadlineExceeded || time.Since(start) > 5*time.Second {
			t.Errorf("error %v after %v, want deadline_exceeded", err, time.Since(start))
		}
	})
}

func TestConnectGzipInterop(t *testing.T) {
	url := testGateway(t, gateway.Options{})
	forEach(t, func(t *testing.T, tr transport, opts []connect.ClientOption) {
		hc, seen := tr.client()
		opts = append(opts, connect.WithSendGzip())
		name := strings.Repeat("gzip me ", 1<<10)
		c := connect.NewClient[testv1.EchoRequest, testv1.EchoResponse](hc, url+"/rpckit.test.v1.Test/Echo", opts...)
		resp, err := c.CallUnary(context.Background(), connect.NewRequest(&testv1.EchoRequest{Item: &testv1.Item{Name: name}}))
		if err != nil || resp.Msg.GetItem().GetName() != name {
			t.Fatalf("response of %d bytes: %v", len(resp.Msg.GetItem().GetName()), err)
		}
		if seen.encoding != "gzip" {
			t.Errorf("response Content-Encoding %q, want gzip", seen.encoding)
		}
		sc := connect.NewClient[testv1.EchoRequest, testv1.EchoResponse](hc, url+"/rpckit.test.v1.Test/Chat", opts...)
		if !tr.h2c {
			return
		}
		st := sc.CallBidiStream(context.Background())
		if err := st.Send(&testv1.EchoRequest{Item: &testv1.Item{Name: name}}); err != nil {
			t.Fatal(err)
		}
		msg, err := st.Receive()
		if err != nil || msg.GetItem().GetName() != name {
			t.Fatalf("bidi response: %v", err)
		}
		_ = st.CloseRequest()
		_ = st.CloseResponse()
		if seen.connEnc != "gzip" {
			t.Errorf("stream Connect-Content-Encoding %q, want gzip", seen.connEnc)
		}
	})
}

func TestConnectGetInterop(t *testing.T) {
	g, _ := startGateway(t)
	url := serveBoth(t, g)
	forEach(t, func(t *testing.T, tr transport, opts []connect.ClientOption) {
		hc, seen := tr.client()
		opts = append(opts, connect.WithHTTPGet(), connect.WithIdempotency(connect.IdempotencyNoSideEffects))
		c := connect.NewClient[gwtestv1.GetItemRequest, gwtestv1.Item](hc, url+"/rpckit.gwtest.v1.Everything/GetItem", opts...)
		resp, err := c.CallUnary(context.Background(), connect.NewRequest(&gwtestv1.GetItemRequest{Name: "projects/p/items/7"}))
		if err != nil {
			t.Fatal(err)
		}
		if resp.Msg.GetDisplayName() != "Item 7" || seen.method != http.MethodGet {
			t.Errorf("%s: response %v", seen.method, resp.Msg)
		}
		if resp.Header().Get("X-Resp-H") == "" || resp.Trailer().Get("X-Resp-T") == "" {
			t.Errorf("header %v, trailer %v", resp.Header(), resp.Trailer())
		}
		_, err = c.CallUnary(context.Background(), connect.NewRequest(&gwtestv1.GetItemRequest{Name: "projects/p/items/missing"}))
		if connect.CodeOf(err) != connect.CodeNotFound || seen.method != http.MethodGet {
			t.Errorf("%s: error %v, want not_found", seen.method, err)
		}
	})
}

func TestConnectStreamsInterop(t *testing.T) {
	url := testGateway(t, gateway.Options{Headers: []string{"X-Echo-A"}})
	forEach(t, func(t *testing.T, tr transport, opts []connect.ClientOption) {
		hc, _ := tr.client()
		ctx := context.Background()
		count := connect.NewClient[testv1.CountRequest, testv1.EchoResponse](hc, url+"/rpckit.test.v1.Test/Count", opts...)
		req := connect.NewRequest(&testv1.CountRequest{Count: 4, FailAfter: 3, FailCode: 10})
		req.Header().Set("X-Echo-A", "v")
		st, err := count.CallServerStream(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for st.Receive() {
			got = append(got, st.Msg().GetNumber())
		}
		if len(got) != 3 || got[2] != 3 || connect.CodeOf(st.Err()) != connect.CodeAborted {
			t.Errorf("server stream: %v, %v; want 1..3 then aborted", got, st.Err())
		}
		if st.ResponseHeader().Get("X-Echo-A") != "v" || st.ResponseTrailer().Get("X-Trailer-A") != "v" {
			t.Errorf("server stream: header %v, trailer %v", st.ResponseHeader(), st.ResponseTrailer())
		}
		_ = st.Close()

		sum := connect.NewClient[testv1.EchoRequest, testv1.SumResponse](hc, url+"/rpckit.test.v1.Test/Sum", opts...)
		cs := sum.CallClientStream(ctx)
		for _, n := range []int64{1, 2, 3} {
			if err := cs.Send(&testv1.EchoRequest{Number: n}); err != nil {
				t.Fatal(err)
			}
		}
		resp, err := cs.CloseAndReceive()
		if err != nil || resp.Msg.GetTotal() != 6 || resp.Msg.GetMessages() != 3 {
			t.Errorf("client stream: %v, %v", resp, err)
		}
		chat(t, tr, connect.NewClient[testv1.EchoRequest, testv1.EchoResponse](hc, url+"/rpckit.test.v1.Test/Chat", opts...))
	})
}

// chat runs a bidi stream in lockstep, each response before the next
// request; on HTTP/1.1 the call fails, as bidi streams need HTTP/2.
func chat(t *testing.T, tr transport, c *connect.Client[testv1.EchoRequest, testv1.EchoResponse]) {
	t.Helper()
	st := c.CallBidiStream(context.Background())
	defer st.CloseResponse()
	for i := int64(1); i <= 3; i++ {
		err := st.Send(&testv1.EchoRequest{Number: i})
		var msg *testv1.EchoResponse
		if err == nil {
			msg, err = st.Receive()
		}
		if !tr.h2c {
			if err == nil {
				t.Fatal("bidi stream over HTTP/1.1 worked, want an error")
			}
			return
		}
		if err != nil || msg.GetNumber() != i {
			t.Fatalf("bidi message %d: %v, %v", i, msg, err)
		}
	}
	if err := st.Send(&testv1.EchoRequest{FailCode: 8}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Receive(); connect.CodeOf(err) != connect.CodeResourceExhausted {
		t.Errorf("bidi error %v, want resource_exhausted", err)
	}
	_ = st.CloseRequest()
}
