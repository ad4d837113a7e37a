package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

var fx *fixtureServers

func TestMain(m *testing.M) {
	flag.Parse()
	if *serveFlag {
		os.Exit(serveForBrowser())
	}
	dir, err := os.MkdirTemp("", "ui-test-")
	if err != nil {
		panic(err)
	}
	fx, err = startFixtures(dir)
	if err != nil {
		panic(err)
	}
	code := m.Run()
	fx.Stop()
	os.RemoveAll(dir)
	os.Exit(code)
}

// page is a logged-in browser stand-in for one handler.
type page struct {
	t   *testing.T
	h   *Handler
	srv *httptest.Server
	c   *http.Client
}

func newPage(t *testing.T, opts Options) *page {
	t.Helper()
	h, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	jar, _ := cookiejar.New(nil)
	p := &page{t: t, h: h, srv: srv, c: &http.Client{Jar: jar, Timeout: 30 * time.Second}}
	t.Cleanup(func() { srv.Close(); h.Close() })
	resp, err := p.c.Get(srv.URL + "/?token=" + h.Token())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Request.URL.RawQuery != "" {
		t.Fatalf("token exchange: %s at %s", resp.Status, resp.Request.URL)
	}
	return p
}

// post sends v as JSON from the page's origin and decodes the answer
// into out; it returns the status code.
func (p *page) post(path string, v, out any) int {
	p.t.Helper()
	body, _ := json.Marshal(v)
	req, _ := http.NewRequest("POST", p.srv.URL+path, bytes.NewReader(body))
	req.Header.Set("Origin", p.srv.URL)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.Header.Set("Content-Type", "application/json")
	return p.do(req, out)
}

func (p *page) get(path string, out any) int {
	p.t.Helper()
	req, _ := http.NewRequest("GET", p.srv.URL+path, nil)
	return p.do(req, out)
}

func (p *page) do(req *http.Request, out any) int {
	p.t.Helper()
	resp, err := p.c.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if out != nil && strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(data, out); err != nil {
			p.t.Fatalf("%s %s: %v in %s", req.Method, req.URL.Path, err, data)
		}
	}
	return resp.StatusCode
}

func (p *page) connect(req connectRequest) connectResponse {
	p.t.Helper()
	var resp connectResponse
	var e apiError
	if code := p.post("/api/connect", req, &resp); code != 200 || resp.ID == "" {
		p.post("/api/connect", req, &e)
		p.t.Fatalf("connect %s: %d %s", req.Target, code, e.Error)
	}
	return resp
}

func (p *page) plain() string {
	return p.connect(connectRequest{Target: fx.Plain, Plaintext: true}).ID
}

// ws opens the page's WebSocket.
func (p *page) ws() *wsClient {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	hdr := http.Header{"Origin": {p.srv.URL}}
	base, _ := url.Parse(p.srv.URL)
	for _, c := range p.c.Jar.Cookies(base) {
		hdr.Add("Cookie", c.Name+"="+c.Value)
	}
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(p.srv.URL, "http")+"/api/ws", &websocket.DialOptions{HTTPHeader: hdr})
	if err != nil {
		cancel()
		p.t.Fatal(err)
	}
	c.SetReadLimit(64 << 20)
	w := &wsClient{t: p.t, c: c, ctx: ctx}
	p.t.Cleanup(func() { c.Close(websocket.StatusNormalClosure, ""); cancel() })
	return w
}

type wsClient struct {
	t   *testing.T
	c   *websocket.Conn
	ctx context.Context
}

func (w *wsClient) send(v any) {
	w.t.Helper()
	data, _ := json.Marshal(v)
	if err := w.c.Write(w.ctx, websocket.MessageText, data); err != nil {
		w.t.Fatal(err)
	}
}

// frame is a frame from the server, with the result kept raw.
type frame struct {
	T        string            `json:"t"`
	ID       string            `json:"id"`
	Rows     [][2]string       `json:"rows"`
	Items    []json.RawMessage `json:"items"`
	N        int64             `json:"n"`
	Error    string            `json:"error"`
	Path     string            `json:"path"`
	Result   json.RawMessage   `json:"result"`
	Progress json.RawMessage   `json:"progress"`
}

func (w *wsClient) next() frame {
	w.t.Helper()
	_, data, err := w.c.Read(w.ctx)
	if err != nil {
		w.t.Fatal(err)
	}
	var f frame
	if err := json.Unmarshal(data, &f); err != nil {
		w.t.Fatal(err)
	}
	return f
}

// until reads frames until one of type t arrives.
func (w *wsClient) until(t string, seen func(frame)) frame {
	w.t.Helper()
	for {
		f := w.next()
		if seen != nil {
			seen(f)
		}
		if f.T == t {
			return f
		}
	}
}

func jsonEq(t *testing.T, got []byte, want string) {
	t.Helper()
	var a, b any
	if err := json.Unmarshal(got, &a); err != nil {
		t.Fatalf("bad JSON %s: %v", got, err)
	}
	json.Unmarshal([]byte(want), &b)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("got %s, want %s", got, want)
	}
}

func mustReq(method, url string) *http.Request {
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		panic(err)
	}
	return req
}

func withHeaders(req *http.Request, kv ...string) *http.Request {
	for i := 0; i+1 < len(kv); i += 2 {
		req.Header.Set(kv[i], kv[i+1])
	}
	return req
}

func newRecorder() *httptest.ResponseRecorder { return httptest.NewRecorder() }
