package gateway_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rpckit/rpckit/gateway"
	"github.com/rpckit/rpckit/internal/rpctest"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// startGateway serves a gateway in front of the Test service, with its
// OpenAPI document, which every REST response of the tests is checked
// against (conforms).
func startGateway(t *testing.T, opts gateway.Options) *httptest.Server {
	opts.OpenAPI = true
	return rpctest.Gateway(t, opts)
}

type exchange struct {
	name, method, path, body string
	header                   map[string]string
	status                   int
	want                     string // the response body, exactly
	wantHeader               map[string]string
}

func TestGateway(t *testing.T) {
	hs := startGateway(t, gateway.Options{
		MaxBodyBytes: 1 << 10,
		Mask:         map[protoreflect.FullName][]string{"rpckit.test.v1.SumResponse": {"messages"}},
		Headers:      []string{"X-Tenant"},
	})
	for _, tc := range []exchange{
		{name: "post body *", method: "POST", path: "/v1/echo", body: `{"item":{"name":"a"},"number":"3"}`,
			status: 200, want: `{"item":{"name":"a"},"number":"3","metadata":["x-forwarded-for=127.0.0.1","x-forwarded-host=gw.test"]}`},
		{name: "default route", method: "POST", path: "/rpckit.test.v1.Test/Echo", body: `{"number":4}`,
			status: 200, want: `{"number":"4","metadata":["x-forwarded-for=127.0.0.1","x-forwarded-host=gw.test"]}`},
		{name: "get with path and query", method: "GET", path: "/v1/items/abc?number=5&item.tags=x&item.tags=y&item.color=COLOR_RED&item.active=true&item.created=2024-01-02T03:04:05Z",
			status: 200, want: `{"item":{"name":"abc","active":true,"color":"COLOR_RED","tags":["x","y"],"created":"2024-01-02T03:04:05Z"},"number":"5","metadata":["x-forwarded-for=127.0.0.1","x-forwarded-host=gw.test"]}`},
		{name: "enum by number, json names", method: "GET", path: "/v1/items/n?item.color=2&failMessage=",
			status: 200, want: `{"item":{"name":"n","color":"COLOR_GREEN"},"metadata":["x-forwarded-for=127.0.0.1","x-forwarded-host=gw.test"]}`},
		{name: "put body field", method: "PUT", path: "/v1/items/7?number=2", body: `{"name":"x"}`,
			status: 200, want: `{"item":{"name":"x","id":"7"},"number":"2","metadata":["x-forwarded-for=127.0.0.1","x-forwarded-host=gw.test"]}`},
		{name: "custom verb, multi-segment variable, response_body", method: "GET", path: "/v1/items/shelves/s1/items/i%2F2:peek",
			status: 200, want: `{"name":"shelves/s1/items/i%2F2"}`},
		{name: "server stream", method: "GET", path: "/v1/count/3",
			status: 200, want: "{\"result\":{\"number\":\"1\"}}\n{\"result\":{\"number\":\"2\"}}\n{\"result\":{\"number\":\"3\"}}",
			wantHeader: map[string]string{"Content-Type": "application/x-ndjson"}},
		{name: "server stream as SSE", method: "GET", path: "/v1/count/2", header: map[string]string{"Accept": "text/event-stream"},
			status: 200, want: "data: {\"number\":\"1\"}\n\ndata: {\"number\":\"2\"}",
			wantHeader: map[string]string{"Content-Type": "text/event-stream"}},
		{name: "client stream, masked response", method: "POST", path: "/v1/sum", body: "{\"number\":1}\n{\"number\":41}\n",
			status: 200, want: `{"total":"42"}`},
		{name: "bidi", method: "POST", path: "/v1/chat", body: "{\"number\":1}\n{\"number\":2}\n",
			status: 200, want: "{\"result\":{\"number\":\"1\"}}\n{\"result\":{\"number\":\"2\"}}"},
		{name: "client stream, bad second request", method: "POST", path: "/v1/sum", body: "{\"number\":1}\n{\"number\":2,}\n",
			status: 400, want: `{"code":3,"message":"request 2: transcode: line 2 col 13: unexpected token }"}`},
		{name: "grpc error with details", method: "POST", path: "/v1/echo", body: `{"failCode":5,"failMessage":"no such item"}`,
			status: 404, want: `{"code":5,"message":"no such item","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"REQUESTED","domain":"test.rpckit.dev","metadata":{"code":"5"}},{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"fail_code","description":"asked to fail"}]}]}`},
		{name: "unavailable", method: "POST", path: "/v1/echo", body: `{"failCode":14}`,
			status: 503, want: `{"code":14,"details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"REQUESTED","domain":"test.rpckit.dev","metadata":{"code":"14"}},{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"fail_code","description":"asked to fail"}]}]}`},
		{name: "deadline from Grpc-Timeout", method: "POST", path: "/v1/echo", body: `{"delay":"5s"}`, header: map[string]string{"Grpc-Timeout": "100m"},
			status: 504},
		{name: "Grpc-Timeout past the longest Duration, clamped", method: "POST", path: "/v1/echo", body: `{"number":1}`, header: map[string]string{"Grpc-Timeout": "2562048H"},
			status: 200},
		{name: "bad Grpc-Timeout", method: "POST", path: "/v1/echo", body: `{}`, header: map[string]string{"Grpc-Timeout": "soon"},
			status: 400},
		{name: "unknown path", method: "GET", path: "/v2/nothing",
			status: 404, want: `{"code":5,"details":[],"message":"no route for GET /v2/nothing"}`},
		{name: "wrong method", method: "DELETE", path: "/v1/echo",
			status: 405, want: `{"code":12,"details":[],"message":"DELETE /v1/echo: method not allowed (allowed: POST)"}`,
			wantHeader: map[string]string{"Allow": "POST"}},
		{name: "bad JSON", method: "POST", path: "/v1/echo", body: `{"number":`, status: 400},
		{name: "unknown field", method: "POST", path: "/v1/echo", body: `{"nope":1}`, status: 400},
		{name: "unknown query parameter", method: "GET", path: "/v1/items/a?nope=1", status: 400},
		{name: "bad bool in query", method: "GET", path: "/v1/items/a?item.active=maybe", status: 400},
		{name: "body too large", method: "POST", path: "/v1/echo", body: `{"item":{"name":"` + strings.Repeat("x", 2000) + `"}}`,
			status: 413},
		{name: "metadata both ways", method: "POST", path: "/v1/echo", body: `{}`,
			header: map[string]string{"Grpc-Metadata-X-Echo-K": "v", "Authorization": "Bearer t", "X-Tenant": "acme", "X-Other": "dropped",
				"X-Forwarded-For": "10.0.0.1", "Grpc-Metadata-X-Forwarded-For": "spoofed", "Grpc-Metadata-Grpc-Timeout": "1S", "Grpc-Metadata-Bad.Key!": "x"},
			status: 200, want: `{"metadata":["authorization=Bearer t","x-echo-k=v","x-forwarded-for=10.0.0.1, 127.0.0.1","x-forwarded-host=gw.test","x-tenant=acme"]}`,
			wantHeader: map[string]string{"Grpc-Metadata-X-Echo-K": "v", "Grpc-Trailer-X-Trailer-K": "v"}},
	} {
		t.Run(tc.name, func(t *testing.T) { check(t, hs, tc) })
	}
}

// TestBidiBadRequest: bad input part-way through a bidi body ends the call
// with the input's error as the stream's last line, whatever responses came
// before it, and never as a call that succeeded on the requests before it.
func TestBidiBadRequest(t *testing.T) {
	hs := startGateway(t, gateway.Options{})
	for range 20 {
		resp, err := hs.Client().Post(hs.URL+"/v1/chat", "application/json", strings.NewReader("{\"number\":1}\n{\"number\":2,}\n"))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		lines := strings.Split(strings.TrimSpace(string(body)), "\n")
		want := `{"error":{"code":3,"message":"request 2: transcode: line 2 col 13: unexpected token }"}}`
		if last := lines[len(lines)-1]; last != want {
			t.Fatalf("%d %s\nwant the last line %s", resp.StatusCode, body, want)
		}
	}
}

func check(t *testing.T, hs *httptest.Server, tc exchange) {
	t.Helper()
	req, err := http.NewRequest(tc.method, hs.URL+tc.path, strings.NewReader(tc.body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Forwarded-Host", "gw.test")
	for k, v := range tc.header {
		req.Header.Set(k, v)
	}
	resp, err := hs.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	conforms(t, hs, tc.method, tc.path, resp.StatusCode, resp.Header, body)
	got := strings.TrimSpace(string(body))
	if resp.StatusCode != tc.status || tc.want != "" && got != tc.want {
		t.Fatalf("%s %s: %d %s\nwant %d %s", tc.method, tc.path, resp.StatusCode, got, tc.status, tc.want)
	}
	for k, v := range tc.wantHeader {
		if resp.Header.Get(k) != v {
			t.Errorf("header %s = %q, want %q", k, resp.Header.Get(k), v)
		}
	}
}

func TestCORS(t *testing.T) {
	hs := startGateway(t, gateway.Options{CORSOrigins: []string{"https://app.example"}})
	req, _ := http.NewRequest("OPTIONS", hs.URL+"/v1/echo", nil)
	req.Header.Set("Origin", "https://app.example")
	req.Header.Set("Access-Control-Request-Method", "POST")
	req.Header.Set("Access-Control-Request-Headers", "content-type")
	resp, err := hs.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 204 || resp.Header.Get("Access-Control-Allow-Origin") != "https://app.example" ||
		resp.Header.Get("Access-Control-Allow-Headers") != "content-type" {
		t.Fatalf("preflight: %d %v", resp.StatusCode, resp.Header)
	}
	req, _ = http.NewRequest("OPTIONS", hs.URL+"/v1/echo", nil)
	req.Header.Set("Origin", "https://evil.example")
	req.Header.Set("Access-Control-Request-Method", "POST")
	resp, err = hs.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("foreign origin allowed: %v", resp.Header)
	}
}
