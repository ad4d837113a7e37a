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
	srv, err := Start(Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	conn, err := invoke.Dial(ctx, srv.Addr, invoke.DialOptions{Plaintext: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	refl := schema.Reflection(conn.ClientConn(), schema.ReflectionOptions{})
	t.Cleanup(refl.Close)
	opts.Conn, opts.Source = conn, refl
	g, err := gateway.New(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	return g, srv
}
