package leanhttp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestBodies(t *testing.T) {
	big := strings.Repeat("abcdefgh", 20000) // larger than the buffer
	s := httpServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/length":
			w.Header().Set("Content-Length", strconv.Itoa(len(big)))
			io.WriteString(w, big)
		case "/chunked":
			for i := 0; i < len(big); i += 10000 {
				io.WriteString(w, big[i:min(i+10000, len(big))])
				w.(http.Flusher).Flush()
			}
		case "/empty":
		case "/204":
			w.WriteHeader(204)
		case "/304":
			w.WriteHeader(304)
		case "/echo":
			b, _ := io.ReadAll(r.Body)
			fmt.Fprintf(w, "%s %s %s %s %s", r.Method, r.URL.RequestURI(), r.Host, r.Header.Get("X-A"), b)
		}
	})
	cases := []struct {
		path, want string
		status     int
		o          Options
	}{
		{"/length", big, 200, Options{}},
		{"/chunked", big, 200, Options{}},
		{"/empty", "", 200, Options{}},
		{"/204", "", 204, Options{}},
		{"/304", "", 304, Options{}},
		{"/echo?q=1", "POST /echo?q=1 example.org v {\"a\":1}", 200,
			Options{Method: "POST", Body: []byte(`{"a":1}`), Header: []Header{{"Host", "example.org"}, {"X-A", "v"}}}},
		{"/length", "", 200, Options{Method: "HEAD"}},
	}
	for _, tc := range cases {
		t.Run(tc.o.Method+tc.path, func(t *testing.T) {
			c := newClient(t, s.URL+tc.path, tc.o)
			for i := range 3 { // the same connection, again
				status, body, err := c.DoBody(context.Background(), nil)
				if err != nil || status != tc.status || string(body) != tc.want {
					t.Fatalf("call %d: %d %.40q %v, want %d %.40q", i, status, body, err, tc.status, tc.want)
				}
			}
			if n := len(c.idle); n != 1 {
				t.Errorf("%d idle connections after calls one at a time, want 1", n)
			}
		})
	}
}

// Responses that end their connection: Connection: close, HTTP/1.0, and a
// body that runs to the close. Each call then takes a new connection.
func TestConnectionClose(t *testing.T) {
	for name, reply := range map[string]string{
		"close":   "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok",
		"http1.0": "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok",
		"to EOF":  "HTTP/1.1 200 OK\r\n\r\nok",
	} {
		t.Run(name, func(t *testing.T) {
			srv, url := startRaw(t, answer(reply, 1))
			c := newClient(t, url, Options{})
			for range 3 {
				status, body, err := c.DoBody(context.Background(), nil)
				if err != nil || status != 200 || string(body) != "ok" {
					t.Fatalf("%d %q %v", status, body, err)
				}
			}
			if n := srv.accepted(); n != 3 {
				t.Errorf("%d connections for 3 calls, want 3", n)
			}
		})
	}
}

// A server that closes each connection after one response, saying
// nothing: a GET is sent again on a new connection, a POST fails.
func TestIdleConnClosedByServer(t *testing.T) {
	srv, url := startRaw(t, answer("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", 1))
	get := newClient(t, url, Options{})
	for i := range 5 {
		if _, err := get.Do(context.Background()); err != nil {
			t.Fatalf("GET %d: %v", i, err)
		}
		time.Sleep(5 * time.Millisecond) // let the close arrive
	}
	if n := srv.accepted(); n != 5 {
		t.Errorf("%d connections for 5 GETs, want 5", n)
	}
	post := newClient(t, url, Options{Method: "POST"})
	if _, err := post.Do(context.Background()); err != nil {
		t.Fatal(err)
	}
	time.Sleep(5 * time.Millisecond)
	_, err := post.Do(context.Background())
	if err == nil || !(errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)) {
		t.Fatalf("POST on a closed connection: %v, want EOF or reset", err)
	}
	if _, err := post.Do(context.Background()); err != nil {
		t.Fatalf("POST after the failed one: %v", err)
	}
}

func TestKeepAliveOff(t *testing.T) {
	var mu sync.Mutex
	var conns []string
	s := httpServer(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		conns = append(conns, r.RemoteAddr+" "+r.Header.Get("Connection"))
		mu.Unlock()
	})
	c := newClient(t, s.URL, Options{DisableKeepAlive: true})
	for range 3 {
		if _, err := c.Do(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if conns[0] == conns[1] || conns[1] == conns[2] || !strings.HasSuffix(conns[0], " close") {
		t.Errorf("requests came as %q, want each on its own connection with Connection: close", conns)
	}
	if len(c.idle) != 0 || len(c.open) != 0 {
		t.Errorf("%d idle, %d open connections, want none", len(c.idle), len(c.open))
	}
}

// The pool grows to the calls in flight and no further.
func TestPoolGrowsToInFlight(t *testing.T) {
	release := make(chan struct{})
	var arrived sync.WaitGroup
	arrived.Add(4)
	s := httpServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hold" {
			arrived.Done()
			<-release
		}
	})
	c := newClient(t, s.URL+"/hold", Options{})
	var calls sync.WaitGroup
	for range 4 {
		calls.Go(func() {
			if _, err := c.Do(context.Background()); err != nil {
				t.Error(err)
			}
		})
	}
	arrived.Wait()
	close(release)
	calls.Wait()
	if len(c.idle) != 4 {
		t.Fatalf("%d idle connections after 4 calls at once, want 4", len(c.idle))
	}
	c.req.bytes = []byte("GET /other HTTP/1.1\r\nHost: x\r\n\r\n")
	for range 10 {
		if _, err := c.Do(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if len(c.idle) != 4 || len(c.open) != 4 {
		t.Fatalf("%d idle, %d open after calls one at a time, want 4 and 4", len(c.idle), len(c.open))
	}
}

func TestDeadline(t *testing.T) {
	s := httpServer(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	c := newClient(t, s.URL, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.Do(ctx)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("slow server: %v, want a deadline error", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("the call took %v with a 50ms deadline", d)
	}
	if len(c.idle) != 0 || len(c.open) != 0 {
		t.Errorf("%d idle, %d open connections after a timeout, want the conn closed", len(c.idle), len(c.open))
	}
	<-ctx.Done()
	if _, err := c.Do(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("call with a done context: %v", err)
	}
}

// Close ends the calls in flight.
func TestCloseEndsCalls(t *testing.T) {
	s := httpServer(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	c := newClient(t, s.URL, Options{})
	done := make(chan error)
	go func() {
		_, err := c.Do(context.Background())
		done <- err
	}()
	for {
		c.mu.Lock()
		n := len(c.open)
		c.mu.Unlock()
		if n > 0 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	time.Sleep(10 * time.Millisecond)
	c.Close()
	if err := <-done; err == nil {
		t.Fatal("a call in flight returned no error after Close")
	}
	if _, err := c.Do(context.Background()); !errors.Is(err, ErrClosed) {
		t.Fatalf("call after Close: %v", err)
	}
}

func TestBodyLimit(t *testing.T) {
	s := httpServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/chunked" {
			w.(http.Flusher).Flush()
		}
		io.WriteString(w, strings.Repeat("x", 5000))
	})
	for _, path := range []string{"/length", "/chunked"} {
		c := newClient(t, s.URL+path, Options{MaxBodySize: 4096})
		_, err := c.Do(context.Background())
		if err == nil || !strings.Contains(err.Error(), "response body larger than the limit of 4096 bytes") {
			t.Errorf("%s: %v, want the body limit", path, err)
		}
		if len(c.open) != 0 {
			t.Errorf("%s: the connection stayed open", path)
		}
	}
}

// Bad responses fail the call with what was wrong, and close the conn.
func TestBadResponses(t *testing.T) {
	cases := []struct{ reply, want string }{
		{"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nok", "response body cut short (2 of 5 bytes)"},
		{"garbage\r\n\r\n", `malformed status line "garbage"`},
		{"HTTP/1.1 2x0 OK\r\n\r\n", "malformed status line"},
		{"HTTP/2.0 200 OK\r\n\r\n", "malformed status line"},
		{"HTTP/1.1 200 OK\r\nno colon\r\n\r\n", `malformed header line "no colon"`},
		{"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", `bad Content-Length "-1"`},
		{"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nok", "two different Content-Lengths"},
		{"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", `malformed chunk size "zz"`},
		{"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nokk\r\n0\r\n\r\n", "a chunk longer than its size"},
		{"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n", "response body cut short (in a chunk size)"},
		{"HTTP/1.1 200 OK\r\nX: " + strings.Repeat("y", 70<<10) + "\r\n\r\n", "response header larger than 65536 bytes"},
		{"HTTP/1.1 200 OK\r\nContent-", "response header cut short"},
		{"", "connection closed before the response"},
		{"HTTP/1.1 101 Switching Protocols\r\n\r\n", "unexpected 101"},
	}
	for _, tc := range cases {
		_, url := startRaw(t, answer(tc.reply, 1))
		c := newClient(t, url, Options{Method: "POST"}) // no retry
		_, err := c.Do(context.Background())
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%.30q: %v, want %q", tc.reply, err, tc.want)
		}
		if len(c.open) != 0 {
			t.Errorf("%.30q: the connection stayed open", tc.reply)
		}
	}
}

// Interim responses are skipped; chunk extensions and trailers read.
func TestInterimAndTrailers(t *testing.T) {
	_, url := startRaw(t, answer("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n"+
		"2;ext=1\r\nok\r\n1\n!\n0\r\nTrailer: x\r\n\r\n", 0))
	c := newClient(t, url, Options{})
	for range 2 {
		status, body, err := c.DoBody(context.Background(), nil)
		if err != nil || status != 200 || string(body) != "ok!" {
			t.Fatalf("%d %q %v", status, body, err)
		}
	}
	if len(c.idle) != 1 {
		t.Errorf("%d idle connections, want 1", len(c.idle))
	}
}

// A server that is not there: the dial's error, refused.
func TestRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ln.Close()
	c := newClient(t, url, Options{})
	if _, err := c.Do(context.Background()); !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("%v, want connection refused", err)
	}
}

func TestBadOptions(t *testing.T) {
	cases := []struct {
		url  string
		o    Options
		want string
	}{
		{"https://127.0.0.1/", Options{}, "is not a http:// URL"},
		{"http:///x", Options{}, "is not a http:// URL"},
		{"http://h/", Options{Method: "G T"}, "method \"G T\" is not a token"},
		{"http://h/", Options{Header: []Header{{"X", "a\r\nb"}}}, "holds a line break"},
		{"http://h/", Options{Header: []Header{{"Bad Name", "a"}}}, "is not a token"},
		{"http://h/", Options{Header: []Header{{"content-length", "1"}}}, "is the client's to set"},
	}
	for _, tc := range cases {
		if _, err := New(tc.url, tc.o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %+v: %v, want %q", tc.url, tc.o, err, tc.want)
		}
	}
}

func TestRequestBytes(t *testing.T) {
	c, err := New("http://u:p@127.0.0.1:8/a/b?c=d", Options{Method: "PUT", Body: []byte("xy"),
		Header: []Header{{"X-B", "1"}}, DisableKeepAlive: true})
	if err != nil {
		t.Fatal(err)
	}
	want := "PUT /a/b?c=d HTTP/1.1\r\nHost: 127.0.0.1:8\r\nAuthorization: Basic dTpw\r\nX-B: 1\r\n" +
		"Content-Length: 2\r\nConnection: close\r\n\r\nxy"
	if got := string(c.req.bytes); got != want {
		t.Errorf("request:\n%q\nwant\n%q", got, want)
	}
	if c.req.addr != "127.0.0.1:8" {
		t.Errorf("addr %q", c.req.addr)
	}
}
