package gwtest_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/rpckit/rpckit/gateway"
	"github.com/rpckit/rpckit/internal/rpctest"
)

// nodeResult is what webclient/connect_client.mjs prints for one HTTP
// version and format.
type nodeResult struct {
	Unary  struct{ Number int } `json:"unary"`
	Error  nodeError            `json:"error"`
	Stream struct {
		Numbers []int `json:"numbers"`
		nodeError
	} `json:"stream"`
	Sum  *struct{ Total, Messages int } `json:"sum"`
	Chat []int                          `json:"chat"`
}

type nodeError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Details int    `json:"details"`
}

// TestConnectNodeClient runs Connect's Node.js client (the npm
// @connectrpc/connect-node package, the schema from a protoset) against
// the gateway over HTTP/1.1 and h2c, binary and JSON: unary calls, errors
// with details, server streams failing part-way, and on HTTP/2 client and
// bidi streams.
func TestConnectNodeClient(t *testing.T) {
	dir, err := filepath.Abs("webclient")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@connectrpc", "connect-node")); err != nil {
		t.Fatalf("node and %s/node_modules are needed (make test runs npm ci there): %v", dir, err)
	}
	protoset := filepath.Join(t.TempDir(), "test.protoset")
	if err := rpctest.WriteProtoset(protoset); err != nil {
		t.Fatal(err)
	}
	url := testGateway(t, gateway.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", filepath.Join(dir, "connect_client.mjs"), url, protoset)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node connect_client.mjs: %v\n%s", err, out)
	}
	var got map[string]nodeResult
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(got) != 4 {
		t.Fatalf("%d results, want 4: %s", len(got), out)
	}
	for name, r := range got {
		if r.Unary.Number != 42 {
			t.Errorf("%s unary: %+v, want number 42", name, r.Unary)
		}
		if r.Error != (nodeError{Code: 5, Message: "no such item", Details: 2}) {
			t.Errorf("%s error: %+v, want code 5 (not_found) \"no such item\" with 2 details", name, r.Error)
		}
		if !reflect.DeepEqual(r.Stream.Numbers, []int{1, 2}) || r.Stream.Code != 5 || r.Stream.Message != "failed after 2 messages" {
			t.Errorf("%s stream: %+v, want 1, 2 then code 5", name, r.Stream)
		}
		if name[:5] != "http2" {
			continue
		}
		if r.Sum == nil || r.Sum.Total != 6 || r.Sum.Messages != 3 || !reflect.DeepEqual(r.Chat, []int{4, 5}) {
			t.Errorf("%s: sum %+v, chat %v; want 6 of 3 messages, 4 5", name, r.Sum, r.Chat)
		}
	}
}
