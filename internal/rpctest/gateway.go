package rpctest

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/rpckit/rpckit/gateway"
	"github.com/rpckit/rpckit/invoke"
	"github.com/rpckit/rpckit/schema"
)

// Gateway serves the gateway, with opts and routes from reflection, in
// front of a Test service of its own, until the test ends.
func Gateway(t testing.TB, opts gateway.Options) *httptest.Server {
	t.Helper()
	g, _ := NewGateway(t, opts)
	hs := httptest.NewServer(g)
	t.Cleanup(hs.Close)
	return hs
}

// NewGateway returns a gateway with opts and routes from reflection, in
// front of a Test service of its own, and that service; both go when the
// test ends.
func NewGateway(t testing.TB, opts gateway.Options) (*gateway.Gateway, *Server) {
	t.Helper()
	srv := startServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	opts.Conn, opts.Source = dial(ctx, t, srv.Addr)
	g, err := gateway.New(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	return g, srv
}

// startServer starts a test server that stops when t ends.
func startServer(t testing.TB) *Server {
	t.Helper()
	srv, err := Start(Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	return srv
}

// dial connects to the server at addr in plaintext, with its reflection
// as the schema source; both close when t ends.
func dial(ctx context.Context, t testing.TB, addr string) (*invoke.Conn, schema.Source) {
	t.Helper()
	conn, err := invoke.Dial(ctx, addr, invoke.DialOptions{Plaintext: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	refl := schema.Reflection(conn.ClientConn(), schema.ReflectionOptions{})
	t.Cleanup(refl.Close)
	return conn, refl
}
