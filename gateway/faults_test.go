package gateway_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rpckit/rpckit/gateway"
	testv1 "github.com/rpckit/rpckit/internal/gen/rpckit/test/v1"
)

// A route kind of the gateway: REST unary, REST streams (client, bidi,
// server), gRPC-Web unary and server stream.
type routeKind struct {
	name   string
	method string
	path   string
	web    bool
	body   func(t *testing.T, big bool) []byte // a valid body, or one past the limit
}

const faultLimit = 1 << 10

func restBody(lines int) func(*testing.T, bool) []byte {
	return func(_ *testing.T, big bool) []byte {
		msg := `{"number":1}` + "\n"
		if big {
			msg = `{"item":{"name":"` + strings.Repeat("x", faultLimit) + `"}}` + "\n"
		}
		return []byte(strings.Repeat(msg, lines))
	}
}

func webRequest(t *testing.T, big bool) []byte {
	req := &testv1.EchoRequest{Number: 1}
	if big {
		req.Item = &testv1.Item{Name: strings.Repeat("x", faultLimit)}
	}
	return webBody(t, false, req)
}

var routeKinds = []routeKind{
	{name: "REST unary", method: "POST", path: "/v1/echo", body: restBody(1)},
	{name: "REST client stream", method: "POST", path: "/v1/sum", body: restBody(2)},
	{name: "REST bidi", method: "POST", path: "/v1/chat", body: restBody(2)},
	{name: "REST server stream", method: "GET", path: "/v1/count/2"},
	{name: "gRPC-Web unary", path: "/rpckit.test.v1.Test/Echo", web: true, body: webRequest},
	{name: "gRPC-Web server stream", path: "/rpckit.test.v1.Test/Count", web: true,
		body: func(t *testing.T, big bool) []byte {
			if big {
				return webRequest(t, big)
			}
			return webBody(t, false, &testv1.CountRequest{Count: 2})
		}},
}

// A client fault, and the one answer it gets on every route.
type fault struct {
	name     string
	header   map[string]string
	big      bool                                // a body past the limit
	webBody  func(t *testing.T, big bool) []byte // for gRPC-Web only, instead of the route's
	applies  func(k routeKind) bool              // nil: every route
	httpCode int                                 // REST
	code     int                                 // google.rpc.Code, REST and gRPC-Web
}

var faults = []fault{
	{name: "body past the limit", big: true, applies: hasBody, httpCode: 413, code: 8},
	{name: "non-ASCII metadata value", header: map[string]string{"Grpc-Metadata-X-Note": "café"}, httpCode: 400, code: 3},
	{name: "non-ASCII forwarded header", header: map[string]string{"X-Tenant": "ünï"}, httpCode: 400, code: 3},
	{name: "binary metadata not base64", header: map[string]string{"Grpc-Metadata-X-Data-Bin": "%%%"}, httpCode: 400, code: 3},
	{name: "bad Grpc-Timeout", header: map[string]string{"Grpc-Timeout": "9999999999S"}, httpCode: 400, code: 3},
	{name: "gRPC-Web frame past the limit", applies: isWeb, code: 8,
		webBody: func(t *testing.T, _ bool) []byte { return webFrame(0, make([]byte, faultLimit+1)) }},
	{name: "gRPC-Web frame length past the limit, body short", applies: isWeb, code: 8,
		webBody: func(t *testing.T, _ bool) []byte { return []byte{0, 0x40, 0, 0, 0, 8, 1} }}, // 1 GiB announced
	{name: "gRPC-Web compressed frame", applies: isWeb, code: 12,
		webBody: func(t *testing.T, _ bool) []byte { return webFrame(1, []byte{8, 1}) }},
}

func hasBody(k routeKind) bool { return k.body != nil && k.method != "GET" }
func isWeb(k routeKind) bool   { return k.web }

// TestFaultsAcrossRoutes: the same client fault gets the same answer,
// a 4xx and its gRPC code, on every route that can carry it.
func TestFaultsAcrossRoutes(t *testing.T) {
	hs := startGateway(t, gateway.Options{MaxBodyBytes: faultLimit, Headers: []string{"X-Tenant"}})
	for _, f := range faults {
		for _, k := range routeKinds {
			if f.applies != nil && !f.applies(k) || f.big && !hasBody(k) {
				continue
			}
			t.Run(f.name+"/"+k.name, func(t *testing.T) {
				if k.web {
					body := k.body(t, f.big)
					if f.webBody != nil {
						body = f.webBody(t, f.big)
					}
					if got := postWeb(t, hs, k.path, false, body, f.header).status(); got != strconv.Itoa(f.code) {
						t.Fatalf("grpc-status %s, want %d", got, f.code)
					}
					return
				}
				var body []byte
				if k.body != nil {
					body = k.body(t, f.big)
				}
				httpCode, code, raw := restCall(t, hs, k, body, f.header)
				if httpCode != f.httpCode || code != f.code {
					t.Fatalf("HTTP %d code %d (%s), want HTTP %d code %d", httpCode, code, raw, f.httpCode, f.code)
				}
			})
		}
	}
}

// restCall makes a REST request and returns its HTTP status and the code
// of its error: the body's, or a stream's last line's.
func restCall(t *testing.T, hs *httptest.Server, k routeKind, body []byte, hdr map[string]string) (int, int, string) {
	t.Helper()
	req, err := http.NewRequest(k.method, hs.URL+k.path, strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	for h, v := range hdr {
		req.Header.Set(h, v)
	}
	resp, err := hs.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	conforms(t, hs, k.method, k.path, resp.StatusCode, resp.Header, raw)
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	var st struct {
		Code  int `json:"code"`
		Error *struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &st); err != nil {
		return resp.StatusCode, -1, fmt.Sprintf("%s: %v", raw, err)
	}
	if st.Error != nil {
		st.Code = st.Error.Code
	}
	return resp.StatusCode, st.Code, string(raw)
}

// trickle writes body to w a byte every interval, then closes it; it stops
// when the reader is gone.
func trickle(w *io.PipeWriter, body []byte, interval time.Duration) {
	for i := range body {
		if _, err := w.Write(body[i : i+1]); err != nil {
			return
		}
		time.Sleep(interval)
	}
	w.Close()
}

// TestSlowBodyAcrossRoutes: a body trickling in, a byte every 50 ms, is
// cut off after BodyTimeout with 408 DEADLINE_EXCEEDED on every route
// that reads a body.
func TestSlowBodyAcrossRoutes(t *testing.T) {
	hs := startGateway(t, gateway.Options{BodyTimeout: 300 * time.Millisecond})
	for _, k := range routeKinds {
		if !hasBody(k) && !k.web {
			continue
		}
		t.Run(k.name, func(t *testing.T) {
			pr, pw := io.Pipe()
			defer pw.CloseWithError(errors.New("test over"))
			go trickle(pw, k.body(t, false), 50*time.Millisecond)
			method, ct := k.method, "application/json"
			if k.web {
				method, ct = "POST", "application/grpc-web+proto"
			}
			req, err := http.NewRequest(method, hs.URL+k.path, pr)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", ct)
			start := time.Now()
			resp, err := hs.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if d := time.Since(start); d > 10*time.Second {
				t.Fatalf("answered after %v", d)
			}
			if k.web {
				if got := resp.Header.Get("Grpc-Status"); got != "4" {
					t.Fatalf("grpc-status %q %q, want 4", got, resp.Header.Get("Grpc-Message"))
				}
				return
			}
			if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(raw), `"code":4`) {
				t.Fatalf("HTTP %d %s, want 408 with code 4", resp.StatusCode, raw)
			}
		})
	}
}

// TestStreamIdlesBetweenMessages: a client stream whose messages each
// arrive at once lives on however long it waits between them.
func TestStreamIdlesBetweenMessages(t *testing.T) {
	hs := startGateway(t, gateway.Options{BodyTimeout: 200 * time.Millisecond})
	pr, pw := io.Pipe()
	go func() {
		for i := range 3 {
			fmt.Fprintf(pw, "{\"number\":%d}\n", i+1)
			time.Sleep(500 * time.Millisecond)
		}
		pw.Close()
	}()
	resp, err := hs.Client().Post(hs.URL+"/v1/sum", "application/json", pr)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(raw), `"total":"6"`) {
		t.Fatalf("HTTP %d %s", resp.StatusCode, raw)
	}
}
