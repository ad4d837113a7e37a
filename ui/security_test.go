package ui

import (
	"bytes"
	"io/fs"
	"net/http"
	"strings"
	"testing"

	"github.com/rpckit/rpckit/load/report"
)

func TestSecurityRefusals(t *testing.T) {
	p := newPage(t, Options{})
	get := func(url string, mod func(*http.Request)) int {
		req, _ := http.NewRequest("GET", url, nil)
		if mod != nil {
			mod(req)
		}
		return p.do(req, nil)
	}
	bare := &http.Client{}
	doBare := func(req *http.Request) int {
		resp, err := bare.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	cases := []struct {
		name string
		code int
	}{
		{"page with cookie", get(p.srv.URL+"/", nil)},
		{"foreign Host", get(p.srv.URL+"/", func(r *http.Request) { r.Host = "evil.example:80" })},
		{"rebinding Host with the port", get(p.srv.URL+"/api/info", func(r *http.Request) { r.Host = "attacker.test" + p.srv.URL[strings.LastIndex(p.srv.URL, ":"):] })},
		{"no token", doBare(mustReq("GET", p.srv.URL+"/"))},
		{"no token on the API", doBare(mustReq("GET", p.srv.URL+"/api/info"))},
		{"wrong token", doBare(mustReq("GET", p.srv.URL+"/?token=nope"))},
		{"cross-site POST", p.do(withHeaders(mustReq("POST", p.srv.URL+"/api/disconnect"), "Origin", "http://evil.example", "Sec-Fetch-Site", "cross-site"), nil)},
		{"cross-origin POST without fetch metadata", p.do(withHeaders(mustReq("POST", p.srv.URL+"/api/disconnect"), "Origin", "http://evil.example"), nil)},
		{"WebSocket from another origin", p.do(withHeaders(mustReq("GET", p.srv.URL+"/api/ws"), "Origin", "http://evil.example", "Connection", "Upgrade", "Upgrade", "websocket", "Sec-WebSocket-Version", "13", "Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), nil)},
		{"WebSocket without Origin", p.do(withHeaders(mustReq("GET", p.srv.URL+"/api/ws"), "Connection", "Upgrade", "Upgrade", "websocket", "Sec-WebSocket-Version", "13", "Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), nil)},
	}
	for i, c := range cases {
		want := http.StatusForbidden
		if i == 0 {
			want = http.StatusOK
		}
		if c.code != want {
			t.Errorf("%s: status %d, want %d", c.name, c.code, want)
		}
	}
}

func TestSecurityHeadersAndCookie(t *testing.T) {
	h, err := New(Options{Token: "secret"})
	if err != nil {
		t.Fatal(err)
	}
	req := mustReq("GET", "http://127.0.0.1:9/?token=secret")
	w := newRecorder()
	h.ServeHTTP(w, req)
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/" {
		t.Fatalf("token exchange: %d to %q", w.Code, w.Header().Get("Location"))
	}
	csp := w.Header().Get("Content-Security-Policy")
	for _, want := range []string{"script-src 'self'", "style-src 'self'", "default-src 'none'", "connect-src 'self'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
		t.Errorf("CSP %q allows inline code", csp)
	}
	c := w.Result().Cookies()
	if len(c) != 1 || !c[0].HttpOnly || c[0].SameSite != http.SameSiteStrictMode || c[0].Value != "secret" {
		t.Fatalf("cookie %+v", c)
	}
	for _, host := range []string{"localhost:8080", "[::1]:8080", "10.1.2.3"} {
		req := mustReq("GET", "http://x/api/info")
		req.Host = host
		req.AddCookie(c[0])
		w := newRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			t.Errorf("Host %s: %d", host, w.Code)
		}
	}
}

func TestIndexHasNoInlineCode(t *testing.T) {
	b, err := staticFS.ReadFile("static/index.html")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, bad := range []string{"<style", " style=", "onclick", "onload", "javascript:"} {
		if strings.Contains(s, bad) {
			t.Errorf("index.html has %q", bad)
		}
	}
	for i := strings.Index(s, "<script"); i >= 0; i = indexFrom(s, "<script", i+1) {
		tag := s[i : i+strings.Index(s[i:], ">")]
		if !strings.Contains(tag, "src=") {
			t.Errorf("inline script: %s", tag)
		}
	}
}

func indexFrom(s, sub string, from int) int {
	j := strings.Index(s[from:], sub)
	if j < 0 {
		return -1
	}
	return from + j
}

// TestVendorServesReportsUPlot: the page's plotting library is the one the
// HTML report inlines, served from its single embedded copy.
func TestVendorServesReportsUPlot(t *testing.T) {
	h, err := New(Options{Token: "secret"})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"uPlot.iife.min.js", "uPlot.min.css", "uPlot.LICENSE"} {
		want, err := fs.ReadFile(report.UPlot(), name)
		if err != nil || len(want) == 0 {
			t.Fatalf("report.UPlot %s: %d bytes, %v", name, len(want), err)
		}
		req := mustReq("GET", "http://127.0.0.1:9/static/vendor/"+name)
		req.AddCookie(&http.Cookie{Name: h.guard.cookie, Value: "secret"})
		w := newRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusOK || !bytes.Equal(w.Body.Bytes(), want) {
			t.Errorf("%s: status %d, %d bytes, want 200 and report's %d bytes", name, w.Code, w.Body.Len(), len(want))
		}
	}
	req := mustReq("GET", "http://127.0.0.1:9/static/vendor/codejar.js")
	req.AddCookie(&http.Cookie{Name: h.guard.cookie, Value: "secret"})
	w := newRecorder()
	h.ServeHTTP(w, req)
	if w.Code != http.StatusOK || w.Body.Len() == 0 {
		t.Errorf("codejar.js: status %d", w.Code)
	}
}
