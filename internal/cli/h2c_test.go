package cli

import (
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// TestPlainHTTP2 checks that a plainHTTP2 server answers HTTP/2 without TLS
// to h2cTransport and HTTP/1.1 to a default client.
func TestPlainHTTP2(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := plainHTTP2(&http.Server{ReadHeaderTimeout: 5 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, r.Proto)
	})})
	go srv.Serve(lis)
	defer srv.Close()
	url := "http://" + lis.Addr().String() + "/"
	h2 := h2cTransport()
	defer h2.CloseIdleConnections()
	for _, tc := range []struct {
		rt   http.RoundTripper
		want string
	}{{h2, "HTTP/2.0"}, {&http.Transport{}, "HTTP/1.1"}} {
		resp, err := (&http.Client{Transport: tc.rt, Timeout: 5 * time.Second}).Get(url)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(body) != tc.want || resp.Proto != tc.want {
			t.Errorf("served %q, answered over %s; want %s", body, resp.Proto, tc.want)
		}
	}
}
