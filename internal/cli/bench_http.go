package cli

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	neturl "net/url"
	"strings"
	"syscall"
	"time"

	"github.com/rpckit/rpckit/internal/leanhttp"
	"github.com/rpckit/rpckit/load"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// httpBenchFlags bind an HTTP load test's request.
type httpBenchFlags struct {
	method    string
	headers   []string
	body      string
	expect    int
	keepAlive bool
	http2     bool
}

func (f *httpBenchFlags) register(fs *pflag.FlagSet) {
	fs.StringVarP(&f.method, "request", "X", "", "HTTP method (default GET, or POST with a body)")
	fs.StringArrayVar(&f.headers, "http-header", nil, "HTTP request header `'Name: value'` (repeatable)")
	fs.StringVar(&f.body, "body", "", "HTTP request body, `@file` or @- (for a URL, the same as -d)")
	fs.IntVar(&f.expect, "expect-status", 0, "the HTTP status every response must have (default any 2xx)")
	fs.BoolVar(&f.keepAlive, "keepalive", true, "HTTP/1.1: reuse connections (false: a new connection per request)")
	fs.BoolVar(&f.http2, "http2", false, "use HTTP/2 (h2c for http:// URLs)")
}

// httpTarget sends one request.
type httpTarget struct {
	client *http.Client
	method string
	url    string
	header http.Header
	body   []byte
	expect int
}

func (f *httpBenchFlags) target(cmd *cobra.Command, url string, bf *benchFlags) (load.Target, func(error) string, func(), error) {
	body, err := f.readBody(cmd)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := reachable(cmd.Context(), url); err != nil {
		return nil, nil, nil, err
	}
	header := http.Header{}
	for _, h := range f.headers {
		k, v, ok := strings.Cut(h, ":")
		if !ok {
			return nil, nil, nil, usagef("--http-header %q: want 'Name: value'", h)
		}
		header.Add(strings.TrimSpace(k), strings.TrimSpace(v))
	}
	method := f.method
	if method == "" {
		method = http.MethodGet
		if body != nil {
			method = http.MethodPost
		}
	}
	if f.lean(url) {
		return f.leanTarget(url, leanhttp.Options{Method: method, Header: leanHeaders(f.headers), Body: body,
			MaxBodySize: maxMsgSize(cmd), MaxIdle: idleConns(bf), DisableKeepAlive: !f.keepAlive})
	}
	transport := f.transport(strings.HasPrefix(url, "http://"), idleConns(bf))
	t := &httpTarget{client: &http.Client{Transport: transport}, method: method, url: url, header: header, body: body, expect: f.expect}
	return t.call, httpCode, transport.CloseIdleConnections, nil
}

// reachable dials the URL's host once, so that a server that is not there
// fails the command before the run, as a gRPC target does.
func reachable(ctx context.Context, rawURL string) error {
	u, err := neturl.Parse(rawURL)
	if err != nil {
		return usagef("%q: %v", rawURL, err)
	}
	host := u.Host
	if u.Port() == "" {
		host = net.JoinHostPort(u.Hostname(), map[string]string{"http": "80", "https": "443"}[u.Scheme])
	}
	d := net.Dialer{Timeout: 10 * time.Second}
	c, err := d.DialContext(ctx, "tcp", host)
	if err != nil {
		return fmt.Errorf("cannot connect to %s: %w", host, err)
	}
	return c.Close()
}

func (f *httpBenchFlags) readBody(cmd *cobra.Command) ([]byte, error) {
	if f.body == "" {
		return nil, nil
	}
	r, closer, err := openRaw(f.body, cmd.InOrStdin())
	if err != nil {
		return nil, err
	}
	defer closer()
	return readLimited(r, maxMsgSize(cmd), nil)
}

// idleConns is how many idle connections to keep: one per call in flight,
// so that keep-alive means no call waits on a new connection. In open loop
// that is the cap on calls in flight.
func idleConns(bf *benchFlags) int {
	switch {
	case bf.rate == "":
		return max(bf.opts.Concurrency, 1)
	case bf.opts.Concurrency > 0:
		return bf.opts.Concurrency
	case bf.opts.MaxInFlight > 0:
		return bf.opts.MaxInFlight
	}
	return load.DefaultMaxInFlight
}

type idleCloser interface {
	http.RoundTripper
	CloseIdleConnections()
}

func (f *httpBenchFlags) transport(plain bool, conns int) idleCloser {
	if f.http2 && plain {
		return h2cTransport()
	}
	return &http.Transport{
		MaxIdleConnsPerHost: conns,
		MaxConnsPerHost:     0,
		DisableKeepAlives:   !f.keepAlive,
		ForceAttemptHTTP2:   f.http2,
		TLSNextProto:        noHTTP2Unless(f.http2),
		IdleConnTimeout:     90 * time.Second,
	}
}

// noHTTP2Unless keeps HTTP/1.1 over TLS unless HTTP/2 was asked for.
func noHTTP2Unless(h2 bool) map[string]func(string, *tls.Conn) http.RoundTripper {
	if h2 {
		return nil
	}
	return map[string]func(string, *tls.Conn) http.RoundTripper{}
}

func (t *httpTarget) call(ctx context.Context) error {
	var body io.Reader
	if t.body != nil {
		body = bytes.NewReader(t.body)
	}
	req, err := http.NewRequestWithContext(ctx, t.method, t.url, body)
	if err != nil {
		return err
	}
	req.Header = t.header
	resp, err := t.client.Do(req)
	if err != nil {
		return err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if !t.ok(resp.StatusCode) {
		return httpStatusError(resp.StatusCode)
	}
	return err
}

func (t *httpTarget) ok(code int) bool { return statusOK(t.expect, code) }

// statusOK reports whether a response's status is the one expected, or
// any 2xx when none is.
func statusOK(expect, code int) bool {
	if expect != 0 {
		return code == expect
	}
	return code >= 200 && code < 300
}

// httpStatusError is a response with an unexpected status.
type httpStatusError int

func (e httpStatusError) Error() string { return fmt.Sprintf("HTTP %d", int(e)) }

// httpCode labels a call's outcome: "OK", "HTTP 503", or the class of a
// transport error: "CONNECTION_REFUSED", "CONNECTION_RESET", or
// load.DefaultCode's label.
func httpCode(err error) string {
	var se httpStatusError
	switch {
	case err == nil:
		return "OK"
	case errors.As(err, &se):
		return se.Error()
	case errors.Is(err, syscall.ECONNREFUSED):
		return "CONNECTION_REFUSED"
	case errors.Is(err, syscall.ECONNRESET):
		return "CONNECTION_RESET"
	}
	return load.DefaultCode(err)
}
