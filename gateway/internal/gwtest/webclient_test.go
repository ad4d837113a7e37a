package gwtest_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/rpckit/rpckit/gateway"
	"github.com/rpckit/rpckit/internal/rpctest"
)

// webResult is what webclient/client.js prints.
type webResult struct {
	Text, Binary struct {
		Unary       webCall   `json:"unary"`
		Error       webCall   `json:"error"`
		Stream      webStream `json:"stream"`
		StreamError webStream `json:"streamError"`
	}
}

type webCall struct {
	Number  int    `json:"number"`
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type webStream struct {
	Numbers []int  `json:"numbers"`
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// TestGRPCWebNodeClient runs grpc-web's own JavaScript client (the npm
// package, under node with an XMLHttpRequest emulation) against the
// gateway: unary calls in text and binary formats, server streams, and
// errors at once and part-way.
func TestGRPCWebNodeClient(t *testing.T) {
	dir, err := filepath.Abs("webclient")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "grpc-web")); err != nil {
		t.Fatalf("node and %s/node_modules are needed (make test runs npm ci there): %v", dir, err)
	}
	hs := startTestGateway(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", filepath.Join(dir, "client.js"), hs.URL)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node client.js: %v\n%s", err, out)
	}
	var got webResult
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, format := range []struct {
		name   string
		result webCall
		errRes webCall
	}{{"text", got.Text.Unary, got.Text.Error}, {"binary", got.Binary.Unary, got.Binary.Error}} {
		if format.result != (webCall{Number: 42}) {
			t.Errorf("%s unary: %+v, want number 42", format.name, format.result)
		}
		if format.errRes != (webCall{Code: 5, Message: "no such item"}) {
			t.Errorf("%s error: %+v, want code 5 \"no such item\"", format.name, format.errRes)
		}
	}
	if want := (webStream{Numbers: []int{1, 2, 3}}); !reflect.DeepEqual(got.Text.Stream, want) {
		t.Errorf("stream: %+v, want %+v", got.Text.Stream, want)
	}
	if want := (webStream{Numbers: []int{1, 2}, Code: 5, Message: "failed after 2 messages"}); !reflect.DeepEqual(got.Text.StreamError, want) {
		t.Errorf("stream error: %+v, want %+v", got.Text.StreamError, want)
	}
}

// startTestGateway puts the gateway in front of rpctest's Test service.
func startTestGateway(t *testing.T) *httptest.Server {
	return rpctest.Gateway(t, gateway.Options{})
}
