package server_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/rpckit/rpckit/server"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
)

// echoService answers each FullDuplexCall request with a response of the
// requested size, and counts open streams on opened.
type echoService struct {
	testgrpc.UnimplementedTestServiceServer
	opened chan struct{}
}

func (e *echoService) EmptyCall(context.Context, *testgrpc.Empty) (*testgrpc.Empty, error) {
	return &testgrpc.Empty{}, nil
}

func (e *echoService) FullDuplexCall(ss testgrpc.TestService_FullDuplexCallServer) error {
	if e.opened != nil {
		e.opened <- struct{}{}
	}
	for {
		req, err := ss.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		body := make([]byte, req.GetResponseParameters()[0].GetSize())
		if err := ss.Send(&testgrpc.StreamingOutputCallResponse{Payload: &testgrpc.Payload{Body: body}}); err != nil {
			return err
		}
	}
}

// running is a server serving in the background of a test.
type running struct {
	srv    *server.Server
	cancel context.CancelFunc
	done   chan error
	conn   *grpc.ClientConn
}

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// start serves svc with opts on loopback; the test's end stops it.
func start(t *testing.T, opts server.Options, register func(*server.Server)) *running {
	t.Helper()
	opts.Addr, opts.AdminAddr = "127.0.0.1:0", "127.0.0.1:0"
	if opts.Logger == nil {
		opts.Logger = quietLogger()
	}
	srv, err := server.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	register(srv)
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{srv: srv, cancel: cancel, done: make(chan error, 1)}
	go func() { r.done <- srv.Serve(ctx) }()
	r.conn, err = grpc.NewClient(srv.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		srv.Stop()
		r.conn.Close()
		r.wait(t)
	})
	return r
}

// wait waits for Serve to return, boundedly.
func (r *running) wait(t *testing.T) error {
	t.Helper()
	select {
	case err := <-r.done:
		r.done <- err // later waits see it too
		return err
	case <-time.After(30 * time.Second):
		t.Fatal("Serve did not return")
		return nil
	}
}

// get fetches an admin path and returns the status code and body.
func (r *running) get(t *testing.T, path string) (int, string) {
	t.Helper()
	resp, err := http.Get("http://" + r.srv.AdminAddr().String() + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}
