package bodytimeout_test

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rpckit/rpckit/internal/bodytimeout"
)

const timeout = 200 * time.Millisecond

// servers runs h over HTTP/1.1 and over HTTP/2 (TLS).
func servers(t *testing.T, h http.Handler) map[string]*httptest.Server {
	h1 := httptest.NewServer(h)
	h2 := httptest.NewUnstartedServer(h)
	h2.EnableHTTP2 = true
	h2.StartTLS()
	t.Cleanup(h1.Close)
	t.Cleanup(h2.Close)
	return map[string]*httptest.Server{"HTTP/1.1": h1, "HTTP/2": h2}
}

// trickle writes n bytes to w, one every interval, and closes it.
func trickle(w *io.PipeWriter, n int, interval time.Duration) {
	for range n {
		if _, err := w.Write([]byte{'x'}); err != nil {
			return
		}
		time.Sleep(interval)
	}
	w.Close()
}

func post(t *testing.T, srv *httptest.Server, body io.Reader) (int, string) {
	t.Helper()
	resp, err := srv.Client().Post(srv.URL, "text/plain", body)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// readAll answers 408 when the clock cuts the body off, else the body's
// length after waiting wait.
func readAll(wait time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		var te *bodytimeout.Error
		if errors.As(err, &te) {
			http.Error(w, err.Error(), http.StatusRequestTimeout)
			return
		}
		time.Sleep(wait)
		if err := r.Context().Err(); err != nil {
			http.Error(w, "context ended: "+err.Error(), http.StatusInternalServerError)
			return
		}
		fmt.Fprintf(w, "%d bytes", len(b))
	})
}

// A body trickling in, a byte every 50 ms for 10 s, is cut off after the
// timeout.
func TestSlowBodyCutOff(t *testing.T) {
	for proto, srv := range servers(t, bodytimeout.Handler(readAll(0), timeout)) {
		t.Run(proto, func(t *testing.T) {
			pr, pw := io.Pipe()
			go trickle(pw, 200, 50*time.Millisecond)
			defer pw.CloseWithError(errors.New("test over"))
			start := time.Now()
			code, body := post(t, srv, pr)
			if code != http.StatusRequestTimeout || !strings.Contains(body, "request body not received within 200ms") {
				t.Fatalf("%d %q, want 408", code, body)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Fatalf("answered after %v", d)
			}
		})
	}
}

// The clock stops at the body's end: a handler that works longer than
// the timeout afterwards keeps its request and its context.
func TestLongHandlerAfterBody(t *testing.T) {
	for proto, srv := range servers(t, bodytimeout.Handler(readAll(3*timeout), timeout)) {
		t.Run(proto, func(t *testing.T) {
			if code, body := post(t, srv, strings.NewReader("hello")); code != 200 || body != "5 bytes" {
				t.Fatalf("%d %q", code, body)
			}
		})
	}
}

// A stream that idles between messages for longer than the timeout lives
// on: only reading a message is timed.
func TestStreamIdleBetweenMessages(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := bodytimeout.New(w, r, timeout)
		in := bufio.NewReader(body)
		n := 0
		for {
			_, err := in.ReadString('\n')
			if err == io.EOF {
				break
			}
			if err != nil {
				http.Error(w, err.Error(), http.StatusRequestTimeout)
				return
			}
			n++
			if in.Buffered() == 0 {
				body.Idle()
			} else {
				body.Restart()
			}
		}
		fmt.Fprintf(w, "%d messages", n)
	})
	for proto, srv := range servers(t, h) {
		t.Run(proto, func(t *testing.T) {
			pr, pw := io.Pipe()
			go func() {
				for range 3 {
					pw.Write([]byte("message\n"))
					time.Sleep(3 * timeout)
				}
				pw.Close()
			}()
			if code, body := post(t, srv, pr); code != 200 || body != "3 messages" {
				t.Fatalf("%d %q", code, body)
			}
		})
	}
}

// A message that trickles in after an idle wait is cut off all the same.
func TestStreamSlowMessageCutOff(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := bodytimeout.New(w, r, timeout)
		body.Idle()
		_, err := io.ReadAll(body)
		var te *bodytimeout.Error
		if !errors.As(err, &te) {
			http.Error(w, fmt.Sprint("read: ", err), http.StatusInternalServerError)
			return
		}
		http.Error(w, err.Error(), http.StatusRequestTimeout)
	})
	for proto, srv := range servers(t, h) {
		t.Run(proto, func(t *testing.T) {
			pr, pw := io.Pipe()
			go func() {
				time.Sleep(2 * timeout)
				trickle(pw, 200, 50*time.Millisecond)
			}()
			defer pw.CloseWithError(errors.New("test over"))
			if code, _ := post(t, srv, pr); code != http.StatusRequestTimeout {
				t.Fatalf("%d, want 408", code)
			}
		})
	}
}

// A handler that answers without reading the body does not leave the
// connection to a client trickling it: the server reads what is left to
// reuse the connection, on the clock, and closes it when the clock runs out.
func TestUnreadBodyCutOff(t *testing.T) {
	srv := httptest.NewServer(bodytimeout.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no", http.StatusForbidden)
	}), timeout))
	t.Cleanup(srv.Close)
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	const size = 200 // 10 s at a byte every 50 ms
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: test\r\nContent-Length: %d\r\n\r\n", size)
	closed := make(chan struct{})
	go func() {
		defer close(closed)
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusForbidden {
				t.Errorf("status %d", resp.StatusCode)
			}
			conn.Read(make([]byte, 1)) // blocks until the server closes
		}
	}()
	for range size {
		select {
		case <-closed:
			return
		case <-time.After(50 * time.Millisecond):
		}
		if _, err := conn.Write([]byte{'x'}); err != nil {
			return
		}
	}
	t.Fatal("the server read the whole trickled body")
}
