package gateway_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rpckit/rpckit/gateway"
)

// syncBuffer collects log lines written from the server's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// records waits (boundedly) for n lines and decodes them.
func (b *syncBuffer) records(t *testing.T, n int) []map[string]any {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		b.mu.Lock()
		text := strings.TrimSpace(b.buf.String())
		b.mu.Unlock()
		lines := strings.Split(text, "\n")
		if text != "" && len(lines) >= n || time.Now().After(deadline) {
			var out []map[string]any
			for _, l := range lines {
				var rec map[string]any
				if err := json.Unmarshal([]byte(l), &rec); err != nil {
					t.Fatalf("log line %q: %v", l, err)
				}
				out = append(out, rec)
			}
			return out
		}
	}
}

// TestAccessLogCodes: the access log's code is the gRPC code of the call,
// next to its HTTP status, and its duration a Go duration string.
func TestAccessLogCodes(t *testing.T) {
	var logs syncBuffer
	hs := startGateway(t, gateway.Options{MaxBodyBytes: 1 << 10, Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	cases := []struct {
		method, path, body string
		status             int
		code               string
	}{
		{"POST", "/v1/echo", `{"number":"3"}`, 200, "OK"},
		{"POST", "/v1/echo", `{"failCode":5,"failMessage":"no such item"}`, 404, "NotFound"},
		{"POST", "/v1/echo", `{"failCode":9}`, 400, "FailedPrecondition"},
		{"POST", "/v1/echo", `{"nope":1}`, 400, "InvalidArgument"},
		{"POST", "/v1/echo", `{"item":{"name":"` + strings.Repeat("x", 2000) + `"}}`, 413, "ResourceExhausted"},
		{"GET", "/v1/count/2", "", 200, "OK"},
		{"GET", "/v2/nothing", "", 404, "NotFound"},
		{"DELETE", "/v1/echo", "", 405, "Unimplemented"},
	}
	for i, tc := range cases {
		req, err := http.NewRequest(tc.method, hs.URL+tc.path, strings.NewReader(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := hs.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.status {
			t.Errorf("%s %s: HTTP %d, want %d", tc.method, tc.path, resp.StatusCode, tc.status)
		}
		logs.records(t, i+1) // the lines in the order of the requests
	}
	recs := logs.records(t, len(cases))
	if len(recs) != len(cases) {
		t.Fatalf("%d access log lines, want %d", len(recs), len(cases))
	}
	for i, tc := range cases {
		r := recs[i]
		if r["status"] != float64(tc.status) || r["code"] != tc.code {
			t.Errorf("%s %s: logged status %v code %v, want %d %s", tc.method, tc.path, r["status"], r["code"], tc.status, tc.code)
		}
		if s, _ := r["duration"].(string); s == "" || !strings.ContainsAny(s, "smµn") {
			t.Errorf("%s %s: duration %#v, want a Go duration string", tc.method, tc.path, r["duration"])
		} else if _, err := time.ParseDuration(s); err != nil {
			t.Errorf("%s %s: duration %q: %v", tc.method, tc.path, s, err)
		}
	}
}
