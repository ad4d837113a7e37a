package cli

import (
	"context"
	"strings"

	"github.com/rpckit/rpckit/internal/leanhttp"
	"github.com/rpckit/rpckit/load"
)

// HTTP targets go through internal/leanhttp, rpckit's own HTTP/1.1 client,
// for plain http:// URLs; https:// URLs and --http2 go through net/http.
// leanhttp follows no redirects (a 3xx response is its status) and uses no
// proxy, as net/http's Transport here uses none either.

// lean reports whether a request to url goes through leanhttp.
func (f *httpBenchFlags) lean(url string) bool {
	return strings.HasPrefix(url, "http://") && !f.http2
}

// leanTarget is the target of a lean request.
func (f *httpBenchFlags) leanTarget(url string, o leanhttp.Options) (load.Target, func(error) string, func(), error) {
	c, err := leanhttp.New(url, o)
	if err != nil {
		return nil, nil, nil, usagef("%s", strings.TrimPrefix(err.Error(), "leanhttp: "))
	}
	expect := f.expect
	call := func(ctx context.Context) error {
		status, err := c.Do(ctx)
		if err != nil {
			return leanError{err}
		}
		if !statusOK(expect, status) {
			return httpStatusError(status)
		}
		return nil
	}
	return call, httpCode, c.Close, nil
}

// leanError is a leanhttp error without the library's prefix, as the
// report's error labels and messages show it.
type leanError struct{ err error }

func (e leanError) Error() string { return strings.TrimPrefix(e.err.Error(), "leanhttp: ") }
func (e leanError) Unwrap() error { return e.err }

// leanHeaders are the --http-header lines as leanhttp takes them.
func leanHeaders(h []string) []leanhttp.Header {
	var out []leanhttp.Header
	for _, line := range h {
		k, v, _ := strings.Cut(line, ":")
		out = append(out, leanhttp.Header{Name: strings.TrimSpace(k), Value: strings.TrimSpace(v)})
	}
	return out
}
