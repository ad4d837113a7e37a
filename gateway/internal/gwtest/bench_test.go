package gwtest_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rpckit/rpckit/gateway"
	"github.com/rpckit/rpckit/gateway/internal/gwtest"
	"github.com/rpckit/rpckit/internal/fixture"
	gwtestv1 "github.com/rpckit/rpckit/internal/gen/rpckit/gwtest/v1"
	"github.com/rpckit/rpckit/invoke"
	"github.com/rpckit/rpckit/schema"
	"google.golang.org/grpc"
	"google.golang.org/grpc/reflection"
	"google.golang.org/protobuf/encoding/protojson"
)

// benchGateway is the gateway alone in front of an Everything service on
// loopback, served in-process through its http.Handler.
func benchGateway(b *testing.B) http.Handler {
	b.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv := grpc.NewServer()
	gwtestv1.RegisterEverythingServer(srv, gwtest.Service{})
	reflection.Register(srv)
	go srv.Serve(lis)
	b.Cleanup(srv.Stop)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	conn, err := invoke.Dial(ctx, lis.Addr().String(), invoke.DialOptions{Plaintext: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { conn.Close() })
	refl := schema.Reflection(conn.ClientConn(), schema.ReflectionOptions{})
	b.Cleanup(refl.Close)
	g, err := gateway.New(ctx, gateway.Options{Conn: conn, Source: refl, Timeout: 10 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	return g
}

// BenchmarkGatewayREST times one REST call through the gateway: the
// Medium fixture (6.4 KB) as a JSON body and back, a list request from
// query parameters, and a response_body route.
func BenchmarkGatewayREST(b *testing.B) {
	g := benchGateway(b)
	medium, err := protojson.Marshal(fixture.Medium())
	if err != nil {
		b.Fatal(err)
	}
	cases := []struct{ name, method, path, body string }{
		{"Medium", "POST", "/v1/echo", string(medium)},
		{"Query", "GET", "/v1/projects/p1/items?" + listQuery, ""},
		{"ResponseBody", "POST", "/v1/projects/p1/items/i1:archive", `{"reason":"old"}`},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.body)))
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest(c.method, c.path, strings.NewReader(c.body))
				rec := httptest.NewRecorder()
				g.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("status %d: %s", rec.Code, rec.Body)
				}
			}
		})
	}
}
