package thriftgw_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/rpckit/rpckit/gateway/thriftgw"
	"github.com/rpckit/rpckit/internal/gen/thrift/rpckit/bench"
	"github.com/rpckit/rpckit/internal/thrifttest"
	"github.com/rpckit/rpckit/thrift/client"
	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/idl"
	"github.com/rpckit/rpckit/thrift/transcode"
)

// env is a gateway in front of the Apache server, with the Apache client
// of the same server to compare with.
type env struct {
	t      testing.TB
	gw     *thriftgw.Gateway
	srv    *httptest.Server
	apache *bench.BenchServiceClient
	idl    *idl.File
	types  dynamic.Cache
	h      *thrifttest.Handler
}

func loadIDL(t testing.TB, name string) *idl.File {
	t.Helper()
	f, err := idl.ParseFile(filepath.Base(name), idl.Options{FS: os.DirFS(filepath.Dir(name))})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func newEnv(t testing.TB, mod func(*thriftgw.Options)) *env {
	h := thrifttest.NewHandler()
	addr := thrifttest.Serve(t, thrifttest.Setup{}, h)
	c, err := client.New(client.Options{Addr: addr, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return newEnvClient(t, c, h, addr, mod)
}

func newEnvClient(t testing.TB, c *client.Client, h *thrifttest.Handler, addr string, mod func(*thriftgw.Options)) *env {
	opts := thriftgw.Options{Client: c}
	if mod != nil {
		mod(&opts)
	}
	gw, err := thriftgw.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	f, err := idl.ParseFile("gateway/thriftgw/testdata/bench_http.thrift",
		idl.Options{FS: os.DirFS("../.."), IncludePaths: []string{"thrift/testdata"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := gw.Load(f); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gw)
	t.Cleanup(srv.Close)
	e := &env{t: t, gw: gw, srv: srv, idl: f, h: h}
	if h != nil {
		e.apache = bench.NewBenchServiceClient(thrifttest.Client(t, thrifttest.Setup{}, addr))
	}
	return e
}

// do sends a request to the gateway and returns its status and body.
func (e *env) do(method, path, body string, hdr ...string) (int, string) {
	e.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, e.srv.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Add(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		e.t.Errorf("%s %s: Content-Type %q", method, path, ct)
	}
	return resp.StatusCode, string(b)
}

// decode reads the gateway's JSON of type name into the Apache struct out,
// through thrift/transcode and the Apache library's binary reader.
func (e *env) decode(name, js string, out thrift.TStruct) {
	e.t.Helper()
	typ := e.types.Type(e.idl.Type(name))
	b, err := transcode.Unmarshal(typ, []byte(js))
	if err != nil {
		e.t.Fatalf("%s %s: %v", name, js, err)
	}
	if err := thrift.NewTDeserializer().Read(context.Background(), out, b); err != nil {
		e.t.Fatalf("%s: %v", name, err)
	}
}

// same compares what the gateway answered (decoded as name) with what the
// Apache client got for the same call, both written back by the Apache
// library (so that nil and empty are one) and read as JSON values.
func (e *env) same(name, js string, got, want thrift.TStruct) {
	e.t.Helper()
	e.decode(name, js, got)
	g, w := e.canonical(name, got), e.canonical(name, want)
	if !reflect.DeepEqual(g, w) {
		e.t.Errorf("gateway's %s:\n%v\nApache client's:\n%v", name, g, w)
	}
}

func (e *env) canonical(name string, v thrift.TStruct) any {
	e.t.Helper()
	b, err := thrift.NewTSerializer().Write(context.Background(), v)
	if err != nil {
		e.t.Fatal(err)
	}
	js, err := transcode.Marshal(e.types.Type(e.idl.Type(name)), b)
	if err != nil {
		e.t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(js, &out); err != nil {
		e.t.Fatal(err)
	}
	return out
}

func TestGetPathAndQuery(t *testing.T) {
	e := newEnv(t, nil)
	code, body := e.do("GET", "/v1/medium/42?title=hello", "")
	if code != 200 {
		t.Fatalf("status %d: %s", code, body)
	}
	want, err := e.apache.GetMedium(context.Background(), 42, "hello")
	if err != nil {
		t.Fatal(err)
	}
	e.same("bench.Medium", body, &bench.Medium{}, want)
}

func TestPostHeaderCookieQueryBody(t *testing.T) {
	e := newEnv(t, nil)
	body := `{"title": "from body", "status_code": 7, "total": 9, "head": {"id": "5", "count": 1, "name": "h"}}`
	code, got := e.do("POST", "/v1/medium?counts=1,2&counts=3", body,
		"X-Title", "from header", "Cookie", "ids=5,6")
	if code != 200 {
		t.Fatalf("status %d: %s", code, got)
	}
	sent := &bench.Medium{Title: "from header", Code: 7, Total: 9, Counts: []int32{1, 2, 3}, Ids: []int64{5, 6},
		Head: &bench.Small{ID: 5, Count: 1, Name: "h"}}
	want, err := e.apache.PutMedium(context.Background(), sent)
	if err != nil {
		t.Fatal(err)
	}
	e.same("bench.Medium", got, &bench.Medium{}, want)
}

func TestPutBracePathParam(t *testing.T) {
	e := newEnv(t, nil)
	code, got := e.do("PUT", "/v1/medium/2.5", `{"tags": ["x"]}`)
	if code != 200 {
		t.Fatalf("status %d: %s", code, got)
	}
	want, err := e.apache.PutMedium(context.Background(), &bench.Medium{Ratio: 2.5, Tags: []string{"x"}})
	if err != nil {
		t.Fatal(err)
	}
	e.same("bench.Medium", got, &bench.Medium{}, want)
}

func TestEchoAndGenericRoute(t *testing.T) {
	e := newEnv(t, nil)
	small := `{"tiny": 3, "id": "77", "score": 1.5, "count": 2, "name": "n", "blob": "AAE="}`
	want, err := e.apache.Echo(context.Background(), &bench.Small{Tiny: 3, ID: 77, Score: 1.5, Count: 2, Name: "n", Blob: []byte{0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, body string }{
		{"/v1/small", small},
		{"/BenchService/Echo", `{"req": ` + small + `}`},
	} {
		code, got := e.do("POST", c.path, c.body)
		if code != 200 {
			t.Fatalf("%s: status %d: %s", c.path, code, got)
		}
		e.same("bench.Small", got, &bench.Small{}, want)
	}
	code, got := e.do("POST", "/BenchService/Grow", `{"seed": {"title": "s"}, "pages": 2}`)
	if code != 200 {
		t.Fatalf("Grow: status %d: %s", code, got)
	}
	wantL, err := e.apache.Grow(context.Background(), &bench.Medium{Title: "s"}, 2)
	if err != nil {
		t.Fatal(err)
	}
	e.same("bench.Large", got, &bench.Large{}, wantL)
}

func TestDeclaredException(t *testing.T) {
	e := newEnv(t, nil)
	_, err := e.apache.GetMedium(context.Background(), -3, "nope")
	want, ok := err.(*bench.BenchError)
	if !ok {
		t.Fatalf("Apache client: %v", err)
	}
	code, got := e.do("GET", "/v1/medium/-3?title=nope", "")
	if code != 409 { // api.http_code on BenchError
		t.Fatalf("status %d, want 409: %s", code, got)
	}
	if !strings.HasPrefix(got, `{"exception":"BenchError",`) {
		t.Fatalf("body %s", got)
	}
	e.same("BenchError", `{`+strings.TrimPrefix(got, `{"exception":"BenchError",`), &bench.BenchError{}, want)

	e2 := newEnv(t, func(o *thriftgw.Options) { o.ExceptionStatus = map[string]int{"BenchError": 404} })
	if code, got := e2.do("POST", "/v1/fail", `{"code": 4, "message": "m"}`); code != 404 ||
		got != `{"exception":"BenchError","code":4,"message":"m"}` {
		t.Fatalf("Fail: %d %s", code, got)
	}
}

func TestOneway(t *testing.T) {
	e := newEnv(t, nil)
	if code, got := e.do("POST", "/v1/notify/a/b/c", ""); code != 202 || got != "{}" {
		t.Fatalf("Notify: %d %s", code, got)
	}
	select {
	case ev := <-e.h.Events:
		if ev != "a/b/c" {
			t.Errorf("event %q, want a/b/c", ev)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no event")
	}
}

func TestRequestErrors(t *testing.T) {
	e := newEnv(t, nil)
	for _, c := range []struct {
		method, path, body string
		status             int
		want               string
	}{
		{"GET", "/v1/nothing", "", 404, `no route for GET /v1/nothing`},
		{"GET", "/v1/small", "", 405, `method GET not allowed`},
		{"POST", "/v1/small", "{\"count\": 1,\n  \"name\": }", 400, `line 2 col 11`},
		{"POST", "/v1/medium?counts=1", "{\"title\": \"t\",\n  \"tags\": [1}", 400, `line 2 col 12`},
		{"POST", "/v1/fail", `{"message": "x"}`, 400, `field \"code\": required field missing`},
		{"POST", "/BenchService/Fail", `{"message": "x"}`, 400, `field \"code\": required field missing`},
		{"POST", "/v1/medium?counts=1,x", `{}`, 400, `query parameter \"counts\" (field \"counts\"): invalid i32 \"x\"`},
		{"GET", "/v1/medium/abc", "", 400, `path parameter \"id\" (field \"id\"): invalid i64 \"abc\"`},
		{"POST", "/v1/small", `{"count": 1, "nope": 2}`, 400, `nope`},
	} {
		code, got := e.do(c.method, c.path, c.body)
		if code != c.status || !strings.Contains(got, c.want) || !strings.HasPrefix(got, `{"error":`) {
			t.Errorf("%s %s %s: %d %s, want %d with %s", c.method, c.path, c.body, code, got, c.status, c.want)
		}
	}
}

func TestUpstreamDown(t *testing.T) {
	c, err := client.New(client.Options{Addr: "127.0.0.1:1", DialTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	e := newEnvClient(t, c, nil, "", nil)
	code, got := e.do("POST", "/v1/small", `{"count": 1}`)
	if code != 503 || !strings.Contains(got, "upstream unavailable") {
		t.Fatalf("%d %s", code, got)
	}
}

func TestMaskAndReload(t *testing.T) {
	e := newEnv(t, func(o *thriftgw.Options) { o.Mask = map[string][]string{"bench.Medium": {"tags", "labels"}} })
	code, got := e.do("GET", "/v1/medium/1?title=t", "")
	if code != 200 {
		t.Fatalf("%d %s", code, got)
	}
	if strings.Contains(got, "tags") || strings.Contains(got, "labels") || !strings.Contains(got, `"total":1`) {
		t.Fatalf("masked reply %s", got)
	}
	// Reload an IDL without annotated routes: only POST /Service/method
	// stays (with no mask: bench.Medium is Medium inside bench.thrift).
	e = newEnv(t, nil)
	if err := e.gw.Load(loadIDL(t, "../../thrift/testdata/bench.thrift")); err != nil {
		t.Fatal(err)
	}
	if code, _ := e.do("POST", "/v1/notify/x", ``); code != 404 {
		t.Errorf("POST /v1/notify/x after reload: %d, want 404", code)
	}
	if code, _ := e.do("PUT", "/v1/medium/1", `{}`); code != 405 {
		t.Errorf("PUT /v1/medium/1 after reload: %d, want 405", code)
	}
	if code, got := e.do("POST", "/v1/medium", `{"status_code": 1}`); code != 400 {
		t.Errorf("api.body key after reload: %d %s, want 400", code, got)
	}
}

func TestMetrics(t *testing.T) {
	e := newEnv(t, func(o *thriftgw.Options) { o.Metrics = true })
	e.do("GET", "/v1/medium/1?title=t", "")
	e.do("POST", "/v1/fail", `{"code": 1}`)
	e.do("GET", "/nothing", "")
	resp, err := http.Get(e.srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, want := range []string{
		`rpckit_gateway_requests_total{code="200",protocol="thrift",route="GET /v1/medium/:id"} 1`,
		`rpckit_gateway_requests_total{code="409",protocol="thrift",route="POST /v1/fail"} 1`,
		`rpckit_gateway_requests_total{code="404",protocol="thrift",route="none"} 1`,
		`rpckit_gateway_request_duration_seconds_count{protocol="thrift",route="GET /v1/medium/:id"} 1`,
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("no %s in\n%s", want, b)
		}
	}
}
