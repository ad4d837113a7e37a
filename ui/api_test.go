package ui

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rpckit/rpckit/internal/rpctest"
)

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func methodsOf(resp connectResponse, service string) []string {
	var out []string
	for _, s := range resp.Services {
		if s.Name == service {
			for _, m := range s.Methods {
				out = append(out, m.FullName)
			}
		}
	}
	return out
}

func TestConnectKinds(t *testing.T) {
	p := newPage(t, Options{})
	ca := readFile(t, fx.Certs.CA)
	protoset := filepath.Join(t.TempDir(), "test.protoset")
	if err := rpctest.WriteProtoset(protoset); err != nil {
		t.Fatal(err)
	}
	cases := map[string]connectRequest{
		"plaintext reflection": {Target: fx.Plain, Plaintext: true},
		"tls with CA":          {Target: fx.TLS, TLS: tlsMaterial{CA: ca}},
		"tls with server name": {Target: fx.TLS, TLS: tlsMaterial{CA: ca, ServerName: "localhost"}},
		"mtls":                 {Target: fx.MTLS, TLS: tlsMaterial{CA: ca, Cert: readFile(t, fx.Certs.ClientCert), Key: readFile(t, fx.Certs.ClientKey)}},
		"protoset":             {Target: fx.Plain, Plaintext: true, Protoset: base64.StdEncoding.EncodeToString([]byte(readFile(t, protoset)))},
		"uploaded proto":       {Target: fx.Plain, Plaintext: true, Protos: []fileText{{Name: "rpckit/test/v1/test.proto", Content: readFile(t, "../proto/rpckit/test/v1/test.proto")}}},
	}
	for name, req := range cases {
		t.Run(name, func(t *testing.T) {
			resp := p.connect(req)
			got := strings.Join(methodsOf(resp, "rpckit.test.v1.Test"), " ")
			if got != "rpckit.test.v1.Test/Echo rpckit.test.v1.Test/Count rpckit.test.v1.Test/Sum rpckit.test.v1.Test/Chat" {
				t.Fatalf("methods %q", got)
			}
			if !resp.Loopback {
				t.Error("loopback target not marked so")
			}
			var out callResult
			p.post("/api/call", callRequest{Conn: resp.ID, Method: "rpckit.test.v1.Test/Echo", Body: json.RawMessage(`{"number":"7"}`)}, &out)
			if out.CodeName != "OK" || len(out.Messages) != 1 || !strings.Contains(string(out.Messages[0]), `"number":"7"`) {
				t.Fatalf("call: %+v", out)
			}
		})
	}
}

func TestConnectFailures(t *testing.T) {
	p := newPage(t, Options{})
	cases := map[string]struct {
		req  connectRequest
		want string
	}{
		"tls without the CA":  {connectRequest{Target: fx.TLS}, "certificate"},
		"mtls without a cert": {connectRequest{Target: fx.MTLS, TLS: tlsMaterial{CA: readFile(t, fx.Certs.CA)}}, "cannot connect"},
		"bad proto":           {connectRequest{Target: fx.Plain, Plaintext: true, Protos: []fileText{{Name: "a.proto", Content: "syntax = \"proto3\";\nmessage {"}}}, "a.proto:2:9"},
		"proto outside":       {connectRequest{Target: fx.Plain, Plaintext: true, Protos: []fileText{{Name: "../a.proto", Content: ""}}}, "relative .proto path"},
		"no target":           {connectRequest{}, "no target"},
	}
	for name, c := range cases {
		var e apiError
		code := p.post("/api/connect", c.req, &e)
		if code != 200 || !strings.Contains(e.Error, c.want) {
			t.Errorf("%s: %d %q, want an error with %q", name, code, e.Error, c.want)
		}
	}
}

func TestWideServiceListing(t *testing.T) {
	p := newPage(t, Options{})
	resp := p.connect(connectRequest{Target: fx.Wide, Plaintext: true})
	if n := len(methodsOf(resp, "rpckit.wide.v1.Catalog")); n != wideMethods {
		t.Fatalf("%d methods, want %d", n, wideMethods)
	}
	var out callResult
	p.post("/api/call", callRequest{Conn: resp.ID, Method: "rpckit.wide.v1.Catalog/AuditGateway", Body: json.RawMessage(`{"id":"x"}`)}, &out)
	jsonEq(t, out.Messages[0], `{"id":"x","method":"AuditGateway"}`)
}

func TestDescribeAndSchema(t *testing.T) {
	p := newPage(t, Options{})
	id := p.plain()
	var d describeResponse
	p.get("/api/describe?conn="+id+"&symbol=rpckit.test.v1.Test/Echo", &d)
	if d.Kind != "method" || !strings.Contains(d.Text, "rpc Echo") || !strings.Contains(string(d.Template), `"failCode"`) {
		t.Fatalf("describe: %+v", d)
	}
	var ms messageSet
	p.get("/api/schema?conn="+id+"&message=rpckit.test.v1.EchoRequest", &ms)
	item := ms.Messages["rpckit.test.v1.Item"]
	if item == nil {
		t.Fatalf("schema lacks Item: %v", ms.Messages)
	}
	kinds := map[string]string{}
	for _, f := range item.Fields {
		kinds[f.JSON] = f.Kind
		if f.JSON == "counts" && (f.Map == nil || f.Map.Key != "string" || f.Map.Kind != "int32") {
			t.Errorf("counts: %+v", f.Map)
		}
		if f.JSON == "label" && f.Oneof != "choice" {
			t.Errorf("label oneof %q", f.Oneof)
		}
	}
	for k, want := range map[string]string{"id": "int64", "color": "enum", "child": "message", "counts": "map", "blob": "bytes"} {
		if kinds[k] != want {
			t.Errorf("field %s kind %q, want %q", k, kinds[k], want)
		}
	}
	if len(ms.Enums["rpckit.test.v1.Color"]) != 3 || !ms.Messages["google.protobuf.Timestamp"].WKT {
		t.Errorf("enums %v", ms.Enums)
	}
}

func TestCheckGivesPath(t *testing.T) {
	p := newPage(t, Options{})
	id := p.plain()
	cases := map[string]string{
		`{"item":{"id":"abc"}}`:                       "item.id",
		`{"item":{"tags":["a",3]}}`:                   "item.tags[1]",
		`{"item":{"child":{"counts":{"k":"x"}}}}`:     `item.child.counts["k"]`,
		`{"item":{"nope":1}}`:                         "item.nope",
		`{"delay":"forever"}`:                         "delay",
		`{"item":{"created":"yesterday"},"number":1}`: "item.created",
	}
	for body, want := range cases {
		var e apiError
		code := p.post("/api/check", checkRequest{Conn: id, Method: "rpckit.test.v1.Test/Echo", Body: json.RawMessage(body)}, &e)
		if code != 200 || e.Path != want || e.Error == "" {
			t.Errorf("%s: %d path %q (%s), want %q", body, code, e.Path, e.Error, want)
		}
	}
	var ok checkResponse
	p.post("/api/check", checkRequest{Conn: id, Method: "rpckit.test.v1.Test/Echo", Body: json.RawMessage(`{"item":{"id":7,"big":"18446744073709551615"}}`)}, &ok)
	jsonEq(t, ok.Canonical, `{"item":{"id":"7","big":"18446744073709551615"}}`)
}

func TestUnaryCall(t *testing.T) {
	p := newPage(t, Options{})
	id := p.plain()
	var out callResult
	p.post("/api/call", callRequest{
		Conn: id, Method: "rpckit.test.v1.Test.Echo", Body: json.RawMessage(`{"item":{"name":"a"}}`),
		Metadata: [][2]string{{"x-echo-who", "me"}, {"x-token-bin", "AAE="}},
	}, &out)
	if out.CodeName != "OK" || out.TimeMS <= 0 {
		t.Fatalf("result %+v", out)
	}
	jsonEq(t, out.Messages[0], `{"item":{"name":"a"},"metadata":["x-echo-who=me","x-token-bin=\u0000\u0001"]}`)
	if !hasRow(out.Headers, "x-echo-who", "me") || !hasRow(out.Trailers, "x-trailer-who", "me") {
		t.Errorf("headers %v trailers %v", out.Headers, out.Trailers)
	}

	out = callResult{}
	p.post("/api/call", callRequest{Conn: id, Method: "rpckit.test.v1.Test/Echo", Body: json.RawMessage(`{"failCode":5,"failMessage":"gone"}`)}, &out)
	if out.CodeName != "NOT_FOUND" || out.Code != 5 || out.Message != "gone" || len(out.Details) != 2 {
		t.Fatalf("error result %+v", out)
	}
	if !strings.Contains(string(out.Details[0]), `"reason":"REQUESTED"`) || !strings.Contains(string(out.Details[1]), `"field":"fail_code"`) {
		t.Errorf("details %s", out.Details)
	}

	out = callResult{}
	p.post("/api/call", callRequest{Conn: id, Method: "rpckit.test.v1.Test/Echo", Body: json.RawMessage(`{"delay":"5s"}`), TimeoutMS: 50}, &out)
	if out.CodeName != "DEADLINE_EXCEEDED" {
		t.Errorf("deadline: %+v", out)
	}
	var e apiError
	if code := p.post("/api/call", callRequest{Conn: id, Method: "rpckit.test.v1.Test/Count"}, &e); code != 400 || !strings.Contains(e.Error, "streaming") {
		t.Errorf("streaming over POST: %d %s", code, e.Error)
	}
	if code := p.post("/api/call", callRequest{Conn: id, Method: "rpckit.test.v1.Test/Ech"}, &e); code != 404 || !strings.Contains(e.Error, "did you mean") {
		t.Errorf("unknown method: %d %s", code, e.Error)
	}
}

func hasRow(rows [][2]string, k, v string) bool {
	for _, r := range rows {
		if r[0] == k && r[1] == v {
			return true
		}
	}
	return false
}
