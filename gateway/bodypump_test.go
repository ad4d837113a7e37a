package gateway_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rpckit/rpckit/gateway"
	"github.com/rpckit/rpckit/internal/rpctest"
)

// TestStreamEndsBeforeBody: the upstream ends a stream while the client
// is still sending. The handler must stop reading the body before it
// returns: a read still running afterwards touched the finished HTTP/2
// response writer and crashed the process.
func TestStreamEndsBeforeBody(t *testing.T) {
	g, _ := rpctest.NewGateway(t, gateway.Options{})
	hs := httptest.NewUnstartedServer(g)
	hs.Config.Protocols = new(http.Protocols)
	hs.Config.Protocols.SetHTTP1(true)
	hs.Config.Protocols.SetUnencryptedHTTP2(true)
	hs.Start()
	t.Cleanup(hs.Close)
	failing := envelope(0, []byte(`{"failCode":8}`))
	for _, tc := range []struct {
		name, path, ct string
		first          []byte
		want           string
		h2c            bool
	}{
		{"REST bidi", "/v1/chat", "application/json", []byte(`{"failCode":8}` + "\n"), `"code":8`, true},
		{"Connect bidi", "/rpckit.test.v1.Test/Chat", "application/connect+json", failing, `"code":"resource_exhausted"`, true},
		{"Connect client stream", "/rpckit.test.v1.Test/Sum", "application/connect+json", failing, `"code":"resource_exhausted"`, true},
		{"Connect client stream on HTTP/1.1", "/rpckit.test.v1.Test/Sum", "application/connect+json", failing, `"code":"resource_exhausted"`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := &http.Transport{Protocols: new(http.Protocols)}
			tr.Protocols.SetHTTP1(!tc.h2c)
			tr.Protocols.SetUnencryptedHTTP2(tc.h2c)
			defer tr.CloseIdleConnections()
			pr, pw := io.Pipe()
			defer pw.Close()
			req, err := http.NewRequest("POST", hs.URL+tc.path, pr)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", tc.ct)
			go pw.Write(tc.first) // the body stays open after it
			resp, err := tr.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil || !strings.Contains(string(b), tc.want) {
				t.Fatalf("%s, %v; want %s", b, err, tc.want)
			}
		})
	}
	// A stray reader would have crashed the test binary by now; another
	// call on the same server gives it the time to.
	resp, err := hs.Client().Get(hs.URL + "/v1/items/x")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
}
