package ui

import (
	"encoding/base64"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rpckit/rpckit/internal/rpctest"
	"github.com/rpckit/rpckit/load/report"
)

// TestConnectProtocols: a connection made with protocol grpc-web or
// connect calls a connect-go server over it (the schema uploaded, as
// reflection is gRPC), failures keep their code and details, and load
// tests run on the connect engine.
func TestConnectProtocols(t *testing.T) {
	srv := rpctest.Connect(t)
	protoset := filepath.Join(t.TempDir(), "test.protoset")
	if err := rpctest.WriteProtoset(protoset); err != nil {
		t.Fatal(err)
	}
	set := base64.StdEncoding.EncodeToString([]byte(readFile(t, protoset)))
	for _, c := range []connectRequest{
		{Protocol: "connect"},
		{Protocol: "connect", HTTP2: true},
		{Protocol: "grpc-web"},
		{Protocol: "grpc-web", HTTP2: true},
	} {
		t.Run(c.Protocol+map[bool]string{true: "-h2c"}[c.HTTP2], func(t *testing.T) {
			p := newPage(t, Options{})
			c.Target, c.Plaintext, c.Protoset = srv.Addr, true, set
			resp := p.connect(c)
			var out callResult
			p.post("/api/call", callRequest{Conn: resp.ID, Method: "rpckit.test.v1.Test/Echo", Body: json.RawMessage(`{"number":"7"}`)}, &out)
			if len(out.Messages) != 1 {
				t.Fatalf("call: %+v", out)
			}
			jsonEq(t, out.Messages[0], `{"number":"7"}`)
			var failed callResult
			p.post("/api/call", callRequest{Conn: resp.ID, Method: "rpckit.test.v1.Test/Echo", Body: json.RawMessage(`{"failCode":5,"failMessage":"gone"}`)}, &failed)
			if failed.CodeName != "NOT_FOUND" || failed.Message != "gone" || len(failed.Details) != 2 ||
				!strings.Contains(string(failed.Details[0]), `"reason":"REQUESTED"`) {
				t.Errorf("failed call: %+v", failed)
			}
			w := p.ws()
			w.send(inFrame{T: "bench", ID: "b", Bench: &benchRequest{Conn: resp.ID, Method: "rpckit.test.v1.Test/Echo",
				Body: json.RawMessage(`{}`), Concurrency: 2, DurationMS: 300}})
			end := w.until("benchend", func(f frame) {
				if f.T == "error" {
					t.Fatalf("bench: %s", f.Error)
				}
			})
			var res benchEnd
			if err := json.Unmarshal(end.Result, &res); err != nil {
				t.Fatal(err)
			}
			r, err := report.ReadJSON(strings.NewReader(res.JSON))
			if err != nil || r.Calls == 0 || r.Errors != 0 {
				t.Fatalf("bench: %v, calls %d errors %d", err, r.Calls, r.Errors)
			}
		})
	}
	p := newPage(t, Options{})
	var e apiError
	if code := p.post("/api/connect", connectRequest{Target: srv.Addr, Plaintext: true, Protocol: "spdy", Protoset: set}, &e); code != 200 || !strings.Contains(e.Error, "unknown protocol") {
		t.Errorf("unknown protocol: %d %q", code, e.Error)
	}
}
