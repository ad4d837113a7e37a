package gwtest_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rpckit/rpckit/internal/fixture"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// BenchmarkGatewayREST times one REST call through the gateway: the
// Medium fixture (6.4 KB) as a JSON body and back, a list request from
// query parameters, and a response_body route.
func BenchmarkGatewayREST(b *testing.B) {
	g, _ := startGateway(b)
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

// BenchmarkGatewayConnect times one Connect unary call through the
// gateway: the Medium fixture in proto and in JSON, there and back.
func BenchmarkGatewayConnect(b *testing.B) {
	g, _ := startGateway(b)
	js, err := protojson.Marshal(fixture.Medium())
	if err != nil {
		b.Fatal(err)
	}
	pb, err := proto.Marshal(fixture.Medium())
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		codec string
		body  []byte
	}{{"proto", pb}, {"json", js}} {
		b.Run(c.codec, func(b *testing.B) {
			b.SetBytes(int64(len(c.body)))
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest("POST", "/rpckit.gwtest.v1.Everything/Echo", bytes.NewReader(c.body))
				req.Header.Set("Content-Type", "application/"+c.codec)
				req.Header.Set("Connect-Protocol-Version", "1")
				rec := httptest.NewRecorder()
				g.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("status %d: %s", rec.Code, rec.Body)
				}
			}
		})
	}
}
