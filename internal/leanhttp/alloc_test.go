package leanhttp

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"testing"
)

// quietServer answers every GET (a head ending in a blank line, no body)
// with reply, and allocates nothing per request once it runs, so that the
// process's allocation count is the client's.
func quietServer(t testing.TB, reply string) string {
	_, url := startRaw(t, func(c net.Conn, _ *bufio.Reader) {
		buf, out := make([]byte, 4096), []byte(reply)
		match := 0 // bytes of "\r\n\r\n" seen
		for {
			n, err := c.Read(buf)
			if err != nil {
				return
			}
			for _, b := range buf[:n] {
				match = step(match, b)
				if match == 4 {
					match = 0
					if _, err := c.Write(out); err != nil {
						return
					}
				}
			}
		}
	})
	return url
}

// step advances a match of "\r\n\r\n" by one byte.
func step(match int, b byte) int {
	switch {
	case b == "\r\n\r\n"[match]:
		return match + 1
	case b == '\r':
		return 1
	}
	return 0
}

const okReply = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: text/plain\r\n\r\nok"

// A call allocates nothing once the pool is warm, with a deadline too.
func TestCallAllocations(t *testing.T) {
	c := newClient(t, quietServer(t, okReply), Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 60e9)
	defer cancel()
	call := func() {
		if status, err := c.Do(ctx); err != nil || status != 200 {
			t.Fatal(status, err)
		}
	}
	for range 100 {
		call()
	}
	n := testing.AllocsPerRun(2000, call)
	t.Logf("%.2f allocations per call", n)
	if n > 0.05 {
		t.Fatalf("%.2f allocations per call, want none", n)
	}
}

// BenchmarkCall measures a GET, one at a time and 16 in flight, on
// leanhttp and on net/http's Client, against quietServer. cpu-ns/op is the
// process's CPU time per call, the server's (the same for both) included;
// -cpuprofile shows the client alone.
func BenchmarkCall(b *testing.B) {
	url := quietServer(b, okReply)
	c := newClient(b, url, Options{})
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	defer hc.CloseIdleConnections()
	lean := func() error {
		_, err := c.Do(context.Background())
		return err
	}
	nethttp := func() error {
		req, err := http.NewRequestWithContext(context.Background(), "GET", url, nil)
		if err != nil {
			return err
		}
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return err
	}
	for _, e := range []struct {
		name string
		call func() error
	}{{"leanhttp", lean}, {"net-http", nethttp}} {
		for _, par := range []int{1, 16} {
			b.Run(e.name+"/"+map[int]string{1: "serial", 16: "16"}[par], func(b *testing.B) {
				b.ReportAllocs()
				cpu := processCPU()
				defer func() { b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op") }()
				if par == 1 {
					for b.Loop() {
						if err := e.call(); err != nil {
							b.Fatal(err)
						}
					}
					return
				}
				b.SetParallelism(par)
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						if err := e.call(); err != nil {
							b.Error(err)
							return
						}
					}
				})
			})
		}
	}
}
