package invoke_test

import (
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	testv1 "github.com/rpckit/rpckit/internal/gen/rpckit/test/v1"
	"github.com/rpckit/rpckit/internal/rpctest"
	"github.com/rpckit/rpckit/invoke"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
)

// webSetups are the protocol and HTTP version pairs a connect-go server
// answers; bidi needs HTTP/2.
var webSetups = []struct {
	name  string
	opts  invoke.DialOptions
	http2 bool
}{
	{"connect-http1", invoke.DialOptions{Protocol: invoke.ProtocolConnect}, false},
	{"connect-h2c", invoke.DialOptions{Protocol: invoke.ProtocolConnect, HTTP: invoke.HTTPOptions{HTTP2PriorKnowledge: true}}, true},
	{"connect-json-h2c", invoke.DialOptions{Protocol: invoke.ProtocolConnect, HTTP: invoke.HTTPOptions{Codec: "json", HTTP2PriorKnowledge: true}}, true},
	{"connect-json-http1", invoke.DialOptions{Protocol: invoke.ProtocolConnect, HTTP: invoke.HTTPOptions{Codec: "json"}}, false},
	{"grpc-web-http1", invoke.DialOptions{Protocol: invoke.ProtocolGRPCWeb}, false},
	{"grpc-web-h2c", invoke.DialOptions{Protocol: invoke.ProtocolGRPCWeb, HTTP: invoke.HTTPOptions{HTTP2PriorKnowledge: true}}, true},
}

func method(name protoreflect.Name) protoreflect.MethodDescriptor {
	return testv1.File_rpckit_test_v1_test_proto.Services().ByName("Test").Methods().ByName(name)
}

func dialWeb(t *testing.T, opts invoke.DialOptions) *invoke.Conn {
	t.Helper()
	srv := rpctest.Connect(t)
	opts.Plaintext = true
	conn, err := invoke.Dial(context.Background(), srv.Addr, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

func TestWebUnary(t *testing.T) {
	for _, s := range webSetups {
		t.Run(s.name, func(t *testing.T) {
			conn := dialWeb(t, s.opts)
			req, _ := proto.Marshal(&testv1.EchoRequest{Item: &testv1.Item{Name: "a", Blob: []byte{0, 1}}, Number: 7})
			ctx := metadata.AppendToOutgoingContext(context.Background(), "x-echo-k", "v", "x-echo-b-bin", "\x00\xff")
			resp, err := conn.Unary(ctx, method("Echo"), req)
			if err != nil {
				t.Fatal(err)
			}
			var got testv1.EchoResponse
			if err := proto.Unmarshal(resp.Message, &got); err != nil {
				t.Fatal(err)
			}
			if got.GetItem().GetName() != "a" || string(got.GetItem().GetBlob()) != "\x00\x01" || got.GetNumber() != 7 {
				t.Errorf("response %v", &got)
			}
			if v := resp.Header.Get("x-echo-k"); len(v) != 1 || v[0] != "v" {
				t.Errorf("header x-echo-k = %q; headers %v", v, resp.Header)
			}
			if v := resp.Header.Get("x-echo-b-bin"); len(v) != 1 || v[0] != "\x00\xff" {
				t.Errorf("header x-echo-b-bin = %q", v)
			}
			if v := resp.Trailer.Get("x-trailer-k"); len(v) != 1 || v[0] != "v" {
				t.Errorf("trailer x-trailer-k = %q; trailers %v", v, resp.Trailer)
			}
		})
	}
}

func TestWebErrorDetails(t *testing.T) {
	for _, s := range webSetups {
		t.Run(s.name, func(t *testing.T) {
			conn := dialWeb(t, s.opts)
			req, _ := proto.Marshal(&testv1.EchoRequest{FailCode: int32(codes.NotFound), FailMessage: "no such item"})
			_, err := conn.Unary(context.Background(), method("Echo"), req)
			checkRequestedError(t, err, codes.NotFound, "no such item")

			st, err := conn.NewStream(context.Background(), method("Count"))
			if err != nil {
				t.Fatal(err)
			}
			req, _ = proto.Marshal(&testv1.CountRequest{Count: 3, FailAfter: 2, FailCode: int32(codes.Aborted)})
			if err := st.Send(req); err != nil {
				t.Fatal(err)
			}
			st.CloseSend()
			n := 0
			for {
				_, err = st.Recv()
				if err != nil {
					break
				}
				n++
			}
			if n != 2 {
				t.Errorf("got %d messages before the error, want 2", n)
			}
			checkRequestedError(t, err, codes.Aborted, "failed after 2 messages")
		})
	}
}

func checkRequestedError(t *testing.T, err error, code codes.Code, msg string) {
	t.Helper()
	var ie *invoke.Error
	if !errors.As(err, &ie) {
		t.Fatalf("error %v (%T), want *invoke.Error", err, err)
	}
	if ie.Status.Code() != code || ie.Status.Message() != msg {
		t.Errorf("status %v %q, want %v %q", ie.Status.Code(), ie.Status.Message(), code, msg)
	}
	details := ie.Status.Details()
	if len(details) != 2 {
		t.Fatalf("details %v, want ErrorInfo and BadRequest", details)
	}
	if info, ok := details[0].(*errdetails.ErrorInfo); !ok || info.GetReason() != "REQUESTED" {
		t.Errorf("detail 0 = %v", details[0])
	}
	if br, ok := details[1].(*errdetails.BadRequest); !ok || br.GetFieldViolations()[0].GetField() != "fail_code" {
		t.Errorf("detail 1 = %v", details[1])
	}
}

func TestWebStreams(t *testing.T) {
	for _, s := range webSetups {
		t.Run(s.name, func(t *testing.T) {
			conn := dialWeb(t, s.opts)
			count, _ := proto.Marshal(&testv1.CountRequest{Count: 3})
			got := streamCall(t, conn, "Count", [][]byte{count})
			if len(got) != 3 {
				t.Errorf("Count: %d responses, want 3", len(got))
			}
			var reqs [][]byte
			for i := range 4 {
				b, _ := proto.Marshal(&testv1.EchoRequest{Number: int64(i + 1)})
				reqs = append(reqs, b)
			}
			got = streamCall(t, conn, "Sum", reqs)
			var sum testv1.SumResponse
			if len(got) != 1 || proto.Unmarshal(got[0], &sum) != nil || sum.GetTotal() != 10 || sum.GetMessages() != 4 {
				t.Errorf("Sum: %d responses, %v", len(got), &sum)
			}
			// A unary method through NewStream.
			echo, _ := proto.Marshal(&testv1.EchoRequest{Number: 9})
			if got = streamCall(t, conn, "Echo", [][]byte{echo}); len(got) != 1 {
				t.Errorf("Echo as a stream: %d responses", len(got))
			}
			if !s.http2 {
				_, err := conn.NewStream(context.Background(), method("Chat"))
				if err == nil {
					t.Fatal("bidi over HTTP/1.1 opened")
				}
				t.Log(err)
				return
			}
			if got = streamCall(t, conn, "Chat", reqs); len(got) != 4 {
				t.Errorf("Chat: %d responses, want 4", len(got))
			}
		})
	}
}

func streamCall(t *testing.T, conn *invoke.Conn, name protoreflect.Name, reqs [][]byte) [][]byte {
	t.Helper()
	st, err := conn.NewStream(context.Background(), method(name))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, r := range reqs {
		if err := st.Send(r); err != nil {
			t.Fatalf("%s: send: %v", name, err)
		}
	}
	if err := st.CloseSend(); err != nil {
		t.Fatalf("%s: close send: %v", name, err)
	}
	var out [][]byte
	for {
		msg, err := st.Recv()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("%s: recv: %v", name, err)
		}
		out = append(out, msg)
	}
}

// TestConnectGET: a method without side effects goes as a GET unless
// asked not to; gRPC-Web always POSTs.
func TestConnectGET(t *testing.T) {
	echo := sideEffectFreeEcho(t)
	for _, c := range []struct {
		opts invoke.DialOptions
		want string
	}{
		{invoke.DialOptions{Protocol: invoke.ProtocolConnect}, "GET"},
		{invoke.DialOptions{Protocol: invoke.ProtocolConnect, HTTP: invoke.HTTPOptions{Codec: "json"}}, "GET"},
		{invoke.DialOptions{Protocol: invoke.ProtocolConnect, HTTP: invoke.HTTPOptions{NoGET: true}}, "POST"},
		{invoke.DialOptions{Protocol: invoke.ProtocolGRPCWeb}, "POST"},
	} {
		conn := dialWeb(t, c.opts)
		req, _ := proto.Marshal(&testv1.EchoRequest{Number: 3})
		resp, err := conn.Unary(context.Background(), echo, req)
		if err != nil {
			t.Fatal(err)
		}
		if got := resp.Header.Get("x-http-method"); len(got) != 1 || got[0] != c.want {
			t.Errorf("%+v: method %v, want %s", c.opts, got, c.want)
		}
		if conn.Protocol() != c.opts.Protocol {
			t.Errorf("Protocol() = %s", conn.Protocol())
		}
	}
}

func sideEffectFreeEcho(t *testing.T) protoreflect.MethodDescriptor {
	fdp := protodesc.ToFileDescriptorProto(testv1.File_rpckit_test_v1_test_proto)
	for _, m := range fdp.Service[0].Method {
		if m.GetName() == "Echo" {
			m.Options = &descriptorpb.MethodOptions{IdempotencyLevel: descriptorpb.MethodOptions_NO_SIDE_EFFECTS.Enum()}
		}
	}
	fd, err := protodesc.NewFile(fdp, protoregistry.GlobalFiles)
	if err != nil {
		t.Fatal(err)
	}
	return fd.Services().ByName("Test").Methods().ByName("Echo")
}

func TestWebOptionErrors(t *testing.T) {
	for _, opts := range []invoke.DialOptions{
		{Protocol: invoke.ProtocolGRPCWeb, HTTP: invoke.HTTPOptions{Codec: "json"}},
		{Protocol: invoke.ProtocolConnect, HTTP: invoke.HTTPOptions{Codec: "xml"}},
		{Protocol: invoke.ProtocolConnect, HTTP: invoke.HTTPOptions{HTTP1: true, HTTP2PriorKnowledge: true}},
		{Protocol: "spdy"},
	} {
		if _, err := invoke.NewConn("127.0.0.1:1", opts); err == nil {
			t.Errorf("%+v: no error", opts)
		}
	}
	var ce *invoke.ConnectError
	_, err := invoke.Dial(context.Background(), "127.0.0.1:1", invoke.DialOptions{Plaintext: true, Protocol: invoke.ProtocolConnect})
	if !errors.As(err, &ce) {
		t.Errorf("dial of a closed port: %v, want a ConnectError", err)
	}
}

// TestWebTLSAndUnix: over TLS the web protocols negotiate HTTP/2 (bidi
// works) unless held to HTTP/1.1, client certificates included; a unix
// socket target works as for gRPC.
func TestWebTLSAndUnix(t *testing.T) {
	certs, err := rpctest.MakeCerts(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(rpctest.ConnectHandler())
	srv.EnableHTTP2 = true
	srv.TLS = certs.ServerTLS(true)
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshakes
	srv.StartTLS()
	t.Cleanup(srv.Close)
	addr := srv.Listener.Addr().String()
	tlsOpts := invoke.TLSOptions{CACert: certs.CA, Cert: certs.ClientCert, Key: certs.ClientKey}
	for _, c := range []struct {
		opts  invoke.DialOptions
		proto string
	}{
		{invoke.DialOptions{Protocol: invoke.ProtocolConnect, TLS: tlsOpts}, "HTTP/2.0"},
		{invoke.DialOptions{Protocol: invoke.ProtocolGRPCWeb, TLS: tlsOpts}, "HTTP/2.0"},
		{invoke.DialOptions{Protocol: invoke.ProtocolConnect, TLS: tlsOpts, HTTP: invoke.HTTPOptions{HTTP1: true}}, "HTTP/1.1"},
	} {
		conn, err := invoke.Dial(context.Background(), addr, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		req, _ := proto.Marshal(&testv1.EchoRequest{Number: 1})
		resp, err := conn.Unary(context.Background(), method("Echo"), req)
		if err != nil {
			t.Fatalf("%+v: %v", c.opts, err)
		}
		if got := resp.Header.Get("x-http-proto"); len(got) != 1 || got[0] != c.proto {
			t.Errorf("%+v: served over %v, want %s", c.opts, got, c.proto)
		}
		if c.proto == "HTTP/2.0" {
			if got := streamCall(t, conn, "Chat", [][]byte{req, req}); len(got) != 2 {
				t.Errorf("%+v: bidi gave %d responses", c.opts, len(got))
			}
		}
		conn.Close()
	}
	noCert := invoke.DialOptions{Protocol: invoke.ProtocolConnect, TLS: invoke.TLSOptions{CACert: certs.CA}}
	conn, err := invoke.Dial(context.Background(), addr, noCert)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Unary(context.Background(), method("Echo"), nil); status.Code(err) != codes.Unavailable {
		t.Errorf("no client certificate: %v, want UNAVAILABLE", err)
	}

	sock := filepath.Join(t.TempDir(), "s.sock")
	lis, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: rpctest.ConnectHandler()}
	go hs.Serve(lis)
	t.Cleanup(func() { hs.Close() })
	uconn, err := invoke.Dial(context.Background(), "unix:"+sock, invoke.DialOptions{Plaintext: true, Protocol: invoke.ProtocolConnect})
	if err != nil {
		t.Fatal(err)
	}
	defer uconn.Close()
	if _, err := uconn.Unary(context.Background(), method("Echo"), nil); err != nil {
		t.Errorf("unix socket: %v", err)
	}
}

// TestWebStreamOneRequest: a server stream takes one request, as gRPC's
// does; a second is refused by name.
func TestWebStreamOneRequest(t *testing.T) {
	conn := dialWeb(t, invoke.DialOptions{Protocol: invoke.ProtocolConnect})
	st, err := conn.NewStream(context.Background(), method("Count"))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Send(nil); err != nil {
		t.Fatal(err)
	}
	err = st.Send(nil)
	if err == nil || err.Error() != "invoke: rpckit.test.v1.Test.Count: a server-streaming or unary call takes one request" {
		t.Errorf("second request: %v", err)
	}
}
