package rpctest

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"
	testv1 "github.com/rpckit/rpckit/internal/gen/rpckit/test/v1"
	"google.golang.org/grpc/status"
)

// ConnectServer is the fixture service on connect-go, speaking Connect,
// gRPC and gRPC-Web over HTTP/1.1 and h2c on 127.0.0.1, for the Connect
// and gRPC-Web clients' tests. It answers as Service does, except that the
// metadata Echo reports is the request's x-* headers, and every response
// has headers x-http-method and x-http-proto naming the request's method
// (GET or POST) and HTTP version.
// Echo has no side effects and so takes GET too.
type ConnectServer struct {
	Addr string // host:port
	srv  *http.Server
}

// StartConnect serves the fixture service with connect-go.
func StartConnect() (*ConnectServer, error) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: ConnectHandler(), ReadHeaderTimeout: 5 * time.Second, Protocols: new(http.Protocols)}
	srv.Protocols.SetHTTP1(true)
	srv.Protocols.SetUnencryptedHTTP2(true)
	go srv.Serve(lis)
	return &ConnectServer{Addr: lis.Addr().String(), srv: srv}, nil
}

// Connect serves the fixture service with connect-go until the test ends.
func Connect(t testing.TB) *ConnectServer {
	t.Helper()
	srv, err := StartConnect()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	return srv
}

// Stop closes the server and its connections.
func (s *ConnectServer) Stop() { s.srv.Close() }

// ConnectHandler is the fixture service as a connect-go http.Handler.
func ConnectHandler() http.Handler {
	const svc = "/rpckit.test.v1.Test/"
	mux := http.NewServeMux()
	mux.Handle(svc+"Echo", connect.NewUnaryHandler(svc+"Echo", connectEcho,
		connect.WithIdempotency(connect.IdempotencyNoSideEffects)))
	mux.Handle(svc+"Count", connect.NewServerStreamHandler(svc+"Count", connectCount))
	mux.Handle(svc+"Sum", connect.NewClientStreamHandler(svc+"Sum", connectSum))
	mux.Handle(svc+"Chat", connect.NewBidiStreamHandler(svc+"Chat", connectChat))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Http-Proto", r.Proto)
		mux.ServeHTTP(w, r)
	})
}

func connectEcho(ctx context.Context, req *connect.Request[testv1.EchoRequest]) (*connect.Response[testv1.EchoResponse], error) {
	m := req.Msg
	resp := connect.NewResponse(&testv1.EchoResponse{Item: m.GetItem(), Number: m.GetNumber(), Metadata: xHeaders(req.Header())})
	echoHeaders(req.Header(), resp.Header(), resp.Trailer(), req.HTTPMethod())
	if err := sleep(ctx, m.GetDelay()); err != nil {
		return nil, connectError(err, resp.Header(), resp.Trailer())
	}
	if err := requestedError(m.GetFailCode(), m.GetFailMessage()); err != nil {
		return nil, connectError(err, resp.Header(), resp.Trailer())
	}
	return resp, nil
}

func connectCount(ctx context.Context, req *connect.Request[testv1.CountRequest], stream *connect.ServerStream[testv1.EchoResponse]) error {
	m := req.Msg
	echoHeaders(req.Header(), stream.ResponseHeader(), stream.ResponseTrailer(), req.HTTPMethod())
	for i := range m.GetCount() {
		if m.GetFailCode() != 0 && i == m.GetFailAfter() {
			return connectError(requestedError(m.GetFailCode(), "failed after "+strconv.Itoa(int(i))+" messages"), nil, nil)
		}
		if i > 0 {
			if err := sleep(ctx, m.GetInterval()); err != nil {
				return connectError(err, nil, nil)
			}
		}
		if err := stream.Send(&testv1.EchoResponse{Number: int64(i + 1)}); err != nil {
			return err
		}
	}
	return nil
}

func connectSum(ctx context.Context, stream *connect.ClientStream[testv1.EchoRequest]) (*connect.Response[testv1.SumResponse], error) {
	sum := &testv1.SumResponse{}
	resp := connect.NewResponse(sum)
	echoHeaders(stream.RequestHeader(), resp.Header(), resp.Trailer(), http.MethodPost)
	for stream.Receive() {
		m := stream.Msg()
		if err := requestedError(m.GetFailCode(), m.GetFailMessage()); err != nil {
			return nil, connectError(err, resp.Header(), resp.Trailer())
		}
		sum.Total += m.GetNumber()
		sum.Messages++
	}
	if err := stream.Err(); err != nil {
		return nil, err
	}
	return resp, nil
}

func connectChat(ctx context.Context, stream *connect.BidiStream[testv1.EchoRequest, testv1.EchoResponse]) error {
	echoHeaders(stream.RequestHeader(), stream.ResponseHeader(), stream.ResponseTrailer(), http.MethodPost)
	for {
		m, err := stream.Receive()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := requestedError(m.GetFailCode(), m.GetFailMessage()); err != nil {
			return connectError(err, nil, nil)
		}
		if err := stream.Send(&testv1.EchoResponse{Item: m.GetItem(), Number: m.GetNumber()}); err != nil {
			return err
		}
	}
}

// connectError is a gRPC status error as a connect-go one, details and
// all; header and trailer (when not nil) go with it.
func connectError(err error, header, trailer http.Header) error {
	st := status.Convert(err)
	ce := connect.NewError(connect.Code(st.Code()), errors.New(st.Message()))
	for _, d := range st.Proto().GetDetails() {
		if detail, derr := connect.NewErrorDetail(d); derr == nil {
			ce.AddDetail(detail)
		}
	}
	for k, vs := range header {
		ce.Meta()[k] = vs
	}
	for k, vs := range trailer {
		ce.Meta()[k] = vs
	}
	return ce
}

// echoHeaders copies x-echo-* request headers to the response headers and,
// renamed x-trailer-*, to its trailers, as Service does with metadata.
func echoHeaders(req, header, trailer http.Header, method string) {
	header.Set("X-Http-Method", method)
	for k, vs := range req {
		k = strings.ToLower(k)
		if rest, ok := strings.CutPrefix(k, "x-echo-"); ok {
			header[http.CanonicalHeaderKey(k)] = vs
			trailer[http.CanonicalHeaderKey("x-trailer-"+rest)] = vs
		}
	}
}

// xHeaders lists a request's x-* headers, key=value, sorted, but for
// gRPC-Web's own.
func xHeaders(h http.Header) []string {
	var out []string
	for k, vs := range h {
		k = strings.ToLower(k)
		if !strings.HasPrefix(k, "x-") || k == "x-user-agent" || k == "x-grpc-web" {
			continue
		}
		for _, v := range vs {
			out = append(out, k+"="+v)
		}
	}
	sort.Strings(out)
	return out
}
