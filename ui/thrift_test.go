package ui

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rpckit/rpckit/examples/ranking"
	"github.com/rpckit/rpckit/internal/thrifttest"
	"github.com/rpckit/rpckit/thrift/client"
)

func thriftConnect(p *page, files []fileText) connectResponse {
	p.t.Helper()
	return p.connect(connectRequest{Target: fx.Thrift, Plaintext: true, Thrift: &thriftRequest{Files: files}})
}

func TestThriftUploadAndBrowse(t *testing.T) {
	p := newPage(t, Options{})
	resp := thriftConnect(p, thriftFiles())
	if !resp.Thrift || !resp.Loopback {
		t.Errorf("connect: thrift %v, loopback %v; want both", resp.Thrift, resp.Loopback)
	}
	got := strings.Join(methodsOf(resp, "Ranking"), " ")
	if got != "Ranking/Missing Ranking/Rank Ranking/RankPage Ranking/Feedback Ranking/Record Ranking/Autoplay" {
		t.Errorf("Ranking's functions %q", got)
	}
	if len(methodsOf(resp, "RankingService")) != 5 {
		t.Errorf("the included file's service: %q", methodsOf(resp, "RankingService"))
	}
	var svc serviceInfo
	for _, s := range resp.Services {
		if s.Name == "Ranking" {
			svc = s
		}
	}
	m := svc.Methods[0]
	if svc.Doc != "The ranking service, as the page sees it." || m.Doc != "Missing is not served: calls end in an application exception." ||
		m.Input != "(1: i32 id)" || m.Output != "void" {
		t.Errorf("service %q, function %+v", svc.Doc, m)
	}
	if rec := svc.Methods[4]; !rec.Oneway || rec.Input != "(1: FeedbackEvent event)" {
		t.Errorf("Record: %+v", rec)
	}
	var d describeResponse
	p.get("/api/describe?conn="+resp.ID+"&symbol=Ranking/Rank", &d)
	if d.Kind != "function" || d.Text != "RankResponse Rank(1: RankRequest request) throws (1: InvalidRequest invalid, 2: QuotaExceeded quota)" {
		t.Errorf("describe: %+v", d)
	}
	if !strings.HasPrefix(string(d.Template), `{"request":{"context":{"user_id":"","device":"UNSPECIFIED"`) {
		t.Errorf("template %s", d.Template)
	}
	p.get("/api/describe?conn="+resp.ID+"&symbol=Ranking.Missing", &d)
	if d.Text != "/** Missing is not served: calls end in an application exception. */\nvoid Missing(1: i32 id)" || string(d.Template) != `{"id":0}` {
		t.Errorf("describe with a doc comment: %q, template %s", d.Text, d.Template)
	}
}

func TestThriftCall(t *testing.T) {
	p := newPage(t, Options{})
	id := thriftConnect(p, thriftFiles()).ID
	var out callResult
	body := `{"request":{"context":{"user_id":"u1","device":"TV"},"candidate_count":20,"limit":2}}`
	p.post("/api/call", callRequest{Conn: id, Method: "Ranking/Rank", Body: json.RawMessage(body)}, &out)
	if out.CodeName != "OK" || len(out.Messages) != 1 || out.TimeMS <= 0 {
		t.Fatalf("call: %+v", out)
	}
	var got struct {
		Items  []json.RawMessage `json:"items"`
		Scored int               `json:"candidates_scored"`
	}
	if err := json.Unmarshal(out.Messages[0], &got); err != nil || len(got.Items) != 2 || got.Scored != 20 {
		t.Errorf("result %s (%v): want 2 items of 20 scored", out.Messages[0], err)
	}
	// The template the page prefills its editor with is JSON the call
	// takes: the server reads it and finds its empty user id wanting.
	var d describeResponse
	p.get("/api/describe?conn="+id+"&symbol=RankingService.Feedback", &d)
	out = callResult{}
	p.post("/api/call", callRequest{Conn: id, Method: "RankingService/Feedback", Body: d.Template}, &out)
	if out.Exception != "InvalidRequest" || !strings.Contains(string(out.Messages[0]), "events[0].user_id: required") {
		t.Errorf("the template's call: %+v", out)
	}
	// A oneway function answers nothing.
	out = callResult{}
	p.post("/api/call", callRequest{Conn: id, Method: "Ranking/Record", Body: json.RawMessage(`{"event":{"user_id":"u2","item_id":3}}`)}, &out)
	if out.CodeName != "OK" || len(out.Messages) != 0 {
		t.Errorf("oneway: %+v", out)
	}
}

func TestThriftExceptions(t *testing.T) {
	p := newPage(t, Options{})
	id := thriftConnect(p, thriftFiles()).ID
	var out callResult
	p.post("/api/call", callRequest{Conn: id, Method: "Ranking/Rank", Body: json.RawMessage(`{"request":{"candidate_count":5}}`)}, &out)
	if out.CodeName != codeException || out.Exception != "InvalidRequest" || len(out.Messages) != 1 {
		t.Fatalf("declared exception: %+v", out)
	}
	jsonEq(t, out.Messages[0], `{"message":"ranking: invalid request: context: required","violations":[{"field":"context","description":"required"}]}`)
	out = callResult{}
	p.post("/api/call", callRequest{Conn: id, Method: "Ranking/Missing", Body: json.RawMessage(`{}`)}, &out)
	if out.CodeName != codeApplication || out.Code != 1 || !strings.Contains(out.Message, "UNKNOWN_METHOD") {
		t.Errorf("application exception: %+v", out)
	}
}

func TestThriftBadJSON(t *testing.T) {
	p := newPage(t, Options{})
	id := thriftConnect(p, thriftFiles()).ID
	for _, path := range []string{"/api/call", "/api/check"} {
		var e apiError
		p.post(path, callRequest{Conn: id, Method: "Ranking/Rank", Body: json.RawMessage(`{"request":{"context":{"device":"TVX"}}}`)}, &e)
		if e.Path != "request.context.device" || !strings.Contains(e.Error, "TVX") {
			t.Errorf("%s: %+v; want the error at request.context.device", path, e)
		}
	}
	var e apiError
	p.post("/api/check", checkRequest{Conn: id, Method: "Ranking/Rank", Body: json.RawMessage(`{"request":{}}`)}, &e)
	if e.Error != "" {
		t.Errorf("check of good JSON: %+v", e)
	}
	p.post("/api/call", callRequest{Conn: id, Method: "Ranking/Nope", Body: json.RawMessage(`{}`)}, &e)
	if !strings.Contains(e.Error, `no function "Ranking/Nope"`) {
		t.Errorf("unknown function: %+v", e)
	}
}

func TestThriftBadIDL(t *testing.T) {
	p := newPage(t, Options{})
	cases := map[string]struct {
		files []fileText
		want  string
	}{
		"syntax":          {[]fileText{{Name: "bad.thrift", Content: "service S {\n  void f(1: i32 x\n}\n"}}, "bad.thrift:3:1"},
		"missing include": {[]fileText{{Name: "api.thrift", Content: apiThrift}}, `api.thrift:1:1: include "ranking.thrift" not found`},
		"outside":         {[]fileText{{Name: "../a.thrift", Content: ""}}, "relative .thrift path"},
		"not thrift":      {[]fileText{{Name: "a.proto", Content: ""}}, "relative .thrift path"},
		"no files":        {nil, "upload the .thrift files"},
		"no service":      {[]fileText{{Name: "a.thrift", Content: "struct S { 1: i32 x }"}}, "declares no service"},
		"too many":        {make([]fileText, maxIDLFiles+1), "at most 64"},
		"too large":       {[]fileText{{Name: "a.thrift", Content: strings.Repeat(" ", maxIDLBytes+1)}}, "more than"},
		"transport":       {thriftFiles(), "want framed, buffered or header"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			tr := &thriftRequest{Files: c.files}
			if name == "transport" {
				tr.Transport = "http"
			}
			var e apiError
			p.post("/api/connect", connectRequest{Target: fx.Thrift, Plaintext: true, Thrift: tr}, &e)
			if !strings.Contains(e.Error, c.want) {
				t.Errorf("error %q; want %q in it", e.Error, c.want)
			}
		})
	}
}

func TestThriftServerDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	p := newPage(t, Options{})
	id := p.connect(connectRequest{Target: addr, Plaintext: true, Thrift: &thriftRequest{Files: thriftFiles()}}).ID
	var out callResult
	start := time.Now()
	p.post("/api/call", callRequest{Conn: id, Method: "Ranking/Rank", Body: json.RawMessage(`{}`)}, &out)
	if out.CodeName != codeCallError || !strings.Contains(out.Message, "connection refused") {
		t.Errorf("call to a server that is down: %+v", out)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the call took %v", d)
	}
}

func TestThriftTargetPolicy(t *testing.T) {
	p := newPage(t, Options{Exposed: true, Allow: []string{"127.0.0.1:1"}})
	var e apiError
	p.post("/api/connect", connectRequest{Target: fx.Thrift, Plaintext: true, Thrift: &thriftRequest{Files: thriftFiles()}}, &e)
	if !strings.Contains(e.Error, "not allowed") {
		t.Errorf("exposed page, target not allowed: %q", e.Error)
	}
	// Streams, load tests and the form are gRPC's only.
	q := newPage(t, Options{})
	id := thriftConnect(q, thriftFiles()).ID
	e = apiError{}
	if code := q.get("/api/schema?conn="+id+"&message=RankRequest", &e); code != 404 || !strings.Contains(e.Error, "Thrift target") {
		t.Errorf("schema of a Thrift target: %d %q", code, e.Error)
	}
	w := q.ws()
	w.send(inFrame{T: "open", ID: "s", Conn: id, Method: "Ranking/Rank", Body: json.RawMessage(`{}`), TimeoutMS: 5000})
	if f := w.until("error", nil); !strings.Contains(f.Error, "is a Thrift target: it takes unary calls only") {
		t.Errorf("a stream on a Thrift target: %q", f.Error)
	}
}

// serveRankingTLS serves the ranking service's Thrift side in TLS, with
// the fixture's server certificate, until the test ends.
func serveRankingTLS(t *testing.T) string {
	t.Helper()
	svc, err := ranking.New(ranking.Options{CatalogueSize: 50, EmbeddingDim: 8, MaxCandidates: 50})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := svc.ThriftServer(ranking.ThriftOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, tls.NewListener(ln, fx.Certs.ServerTLS(false))) }()
	t.Cleanup(func() { cancel(); <-done })
	return ln.Addr().String()
}

// TestThriftTLS: a Thrift target in TLS is called with the CA given (or
// verification skipped), and refused with the handshake's error without.
func TestThriftTLS(t *testing.T) {
	addr := serveRankingTLS(t)
	ca := readFile(t, fx.Certs.CA)
	p := newPage(t, Options{})
	body := json.RawMessage(`{"request":{"context":{"user_id":"u1"},"candidate_count":5,"limit":1}}`)
	for name, m := range map[string]tlsMaterial{"with the CA": {CA: ca}, "with a server name": {CA: ca, ServerName: "localhost"},
		"skipping verification": {Insecure: true}} {
		id := p.connect(connectRequest{Target: addr, TLS: m, Thrift: &thriftRequest{Files: thriftFiles()}}).ID
		var out callResult
		p.post("/api/call", callRequest{Conn: id, Method: "Ranking/Rank", Body: body}, &out)
		if out.CodeName != "OK" || len(out.Messages) != 1 {
			t.Errorf("%s: %+v", name, out)
		}
	}
	id := p.connect(connectRequest{Target: addr, Thrift: &thriftRequest{Files: thriftFiles()}}).ID
	var out callResult
	p.post("/api/call", callRequest{Conn: id, Method: "Ranking/Rank", Body: body}, &out)
	if out.CodeName != codeCallError || !strings.Contains(out.Message, "tls handshake") || !strings.Contains(out.Message, "certificate") {
		t.Errorf("without the CA: %+v; want the handshake's error", out)
	}
	var e apiError
	p.post("/api/connect", connectRequest{Target: addr, TLS: tlsMaterial{CA: "not a certificate"}, Thrift: &thriftRequest{Files: thriftFiles()}}, &e)
	if !strings.Contains(e.Error, "CA certificate") {
		t.Errorf("a bad CA: %q", e.Error)
	}
}

// benchIDL is the bench service's IDL, as the page uploads it.
func benchIDL(t *testing.T) []fileText {
	return []fileText{{Name: "bench.thrift", Content: readFile(t, filepath.Join("..", "thrift", "testdata", "bench.thrift"))}}
}

// TestThriftHeaders: a call's metadata rows reach a header-transport
// server as THeader info headers; other transports refuse them.
func TestThriftHeaders(t *testing.T) {
	h := thrifttest.NewHandler()
	addr := thrifttest.Serve(t, thrifttest.Setup{Transport: client.Header}, h)
	p := newPage(t, Options{})
	id := p.connect(connectRequest{Target: addr, Plaintext: true, Thrift: &thriftRequest{Files: benchIDL(t), Transport: "header"}}).ID
	for _, rid := range []string{"r-1", "r-2"} {
		var out callResult
		md := [][2]string{{"request-id", rid}, {"", "no key"}, {"tenant", "t9"}}
		p.post("/api/call", callRequest{Conn: id, Method: "BenchService/Echo", Body: json.RawMessage(`{"req":{"count":7}}`), Metadata: md}, &out)
		if out.CodeName != "OK" || len(out.Messages) != 1 || !strings.Contains(string(out.Messages[0]), `"count":7`) {
			t.Fatalf("call with headers: %+v", out)
		}
	}
	if got := strings.Join(h.Headers(), " "); got != "r-1 r-2" {
		t.Errorf("the server's request-id headers %q; want r-1 r-2", got)
	}
	framed := p.connect(connectRequest{Target: fx.Thrift, Plaintext: true, Thrift: &thriftRequest{Files: thriftFiles()}}).ID
	var e apiError
	code := p.post("/api/call", callRequest{Conn: framed, Method: "Ranking/Rank", Body: json.RawMessage(`{}`), Metadata: [][2]string{{"request-id", "x"}}}, &e)
	if code != 400 || !strings.Contains(e.Error, `info header "request-id" needs the header transport, not framed`) {
		t.Errorf("headers on the framed transport: %d %q", code, e.Error)
	}
}
