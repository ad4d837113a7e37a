package gateway_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/rpckit/rpckit/gateway"
	testv1 "github.com/rpckit/rpckit/internal/gen/rpckit/test/v1"
)

func TestMetrics(t *testing.T) {
	hs := startGateway(t, gateway.Options{Metrics: true})
	check(t, hs, exchange{method: "POST", path: "/v1/echo", body: `{}`, status: 200})
	check(t, hs, exchange{method: "POST", path: "/v1/echo", body: `{}`, status: 200})
	check(t, hs, exchange{method: "POST", path: "/v1/echo", body: `{"failCode":5}`, status: 404})
	check(t, hs, exchange{method: "GET", path: "/v2/none", status: 404})
	postWeb(t, hs, "/rpckit.test.v1.Test/Echo", false, webBody(t, false, &testv1.EchoRequest{FailCode: 7}), nil)
	text := get(t, hs.URL+"/metrics", 200)
	for _, want := range []string{
		`rpckit_gateway_requests_total{code="200",protocol="rest",route="POST /v1/echo"} 2`,
		`rpckit_gateway_requests_total{code="404",protocol="rest",route="POST /v1/echo"} 1`,
		`rpckit_gateway_requests_total{code="404",protocol="rest",route="none"} 1`,
		`rpckit_gateway_requests_total{code="PermissionDenied",protocol="grpc-web",route="POST /rpckit.test.v1.Test/Echo"} 1`,
		`rpckit_gateway_request_duration_seconds_count{protocol="rest",route="POST /v1/echo"} 3`,
	} {
		if !strings.Contains(text, want+"\n") {
			t.Errorf("metrics lack %s", want)
		}
	}
	off := startGateway(t, gateway.Options{})
	get(t, off.URL+"/metrics", 404)
}

func get(t *testing.T, url string, status int) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != status {
		t.Fatalf("GET %s: %d %s, want %d", url, resp.StatusCode, b, status)
	}
	return string(b)
}
