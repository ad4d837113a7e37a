package leanhttp

import (
	"bufio"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// httpServer serves h over HTTP/1.1 until the test ends.
func httpServer(t testing.TB, h http.HandlerFunc) *httptest.Server {
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return s
}

// newClient makes a Client for url, closed when the test ends.
func newClient(t testing.TB, url string, o Options) *Client {
	c, err := New(url, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// rawServer accepts connections on loopback and gives each to serve,
// returning its URL; it counts the connections it accepted.
type rawServer struct {
	ln    net.Listener
	mu    sync.Mutex
	conns int
	wg    sync.WaitGroup
}

func startRaw(t testing.TB, serve func(c net.Conn, r *bufio.Reader)) (*rawServer, string) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &rawServer{ln: ln}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.conns++
			s.mu.Unlock()
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				defer c.Close()
				serve(c, bufio.NewReader(c))
			}()
		}
	}()
	t.Cleanup(func() { ln.Close(); s.wg.Wait() })
	return s, "http://" + ln.Addr().String()
}

func (s *rawServer) accepted() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conns
}

// readRequest reads one request's head (and no body) and reports whether
// one came.
func readRequest(r *bufio.Reader) bool {
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return false
		}
		if strings.TrimRight(line, "\r\n") == "" {
			return true
		}
	}
}

// answer serves each request on a connection with the reply, and closes
// the connection after `per` requests (never when 0).
func answer(reply string, per int) func(net.Conn, *bufio.Reader) {
	return func(c net.Conn, r *bufio.Reader) {
		for i := 1; readRequest(r); i++ {
			if _, err := c.Write([]byte(reply)); err != nil || i == per {
				return
			}
		}
	}
}
