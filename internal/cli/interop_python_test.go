package cli_test

import (
	"bufio"
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rpckit/rpckit/internal/cli"
	"github.com/rpckit/rpckit/internal/rpctest"
)

// TestInteropPython calls a grpcio (C-core) server, which offers only
// reflection v1alpha, with all four call kinds found by reflection.
// `make test` installs grpcio, grpcio-reflection and grpcio-health-checking.
func TestInteropPython(t *testing.T) {
	if out, err := exec.Command("python3", "-c", "import grpc, grpc_reflection, grpc_health").CombinedOutput(); err != nil {
		t.Fatalf("python3 with grpcio, grpcio-reflection and grpcio-health-checking is needed (make test installs them): %v\n%s", err, out)
	}
	addr := startPython(t)
	run := func(stdin string, args ...string) (string, string, int) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		var out, errb bytes.Buffer
		code := cli.Main(ctx, args, cli.Stdio{In: strings.NewReader(stdin), Out: &out, Err: &errb})
		return out.String(), errb.String(), code
	}
	for _, tc := range []struct {
		name, stdin string
		args        []string
		want        string
		code        int
	}{
		{"list", "", []string{"list", "--plaintext", addr}, "grpc.health.v1.Health\ngrpc.reflection.v1alpha.ServerReflection\nrpckit.test.v1.Test\n", 0},
		{"describe", "", []string{"describe", "--plaintext", addr, "rpckit.test.v1.Test/Sum"},
			"rpckit.test.v1.Test.Sum is a method:\nrpc Sum(stream rpckit.test.v1.EchoRequest) returns (rpckit.test.v1.SumResponse) {\n" +
				"  option (google.api.http) = { post: \"/v1/sum\", body: \"*\" };\n}\n", 0},
		{"unary", "", []string{"call", "--plaintext", addr, "rpckit.test.v1.Test/Echo", "-d", `{"item":{"name":"py","id":"-5","colors":["COLOR_RED"]},"number":3}`},
			`{"item":{"name":"py","id":"-5","colors":["COLOR_RED"]},"number":"3"}` + "\n", 0},
		{"server_streaming", "", []string{"call", "--plaintext", addr, "rpckit.test.v1.Test/Count", "-d", `{"count":3}`},
			"{\"number\":\"1\"}\n{\"number\":\"2\"}\n{\"number\":\"3\"}\n", 0},
		{"client_streaming", `{"number":40} {"number":2}`, []string{"call", "--plaintext", addr, "rpckit.test.v1.Test/Sum"},
			`{"total":"42","messages":2}` + "\n", 0},
		{"bidi", "{\"number\":1}\n{\"number\":2}\n", []string{"call", "--plaintext", addr, "rpckit.test.v1.Test/Chat"},
			"{\"number\":\"1\"}\n{\"number\":\"2\"}\n", 0},
		{"error", "", []string{"call", "--plaintext", addr, "rpckit.test.v1.Test/Echo", "-d", `{"failCode":7,"failMessage":"no entry"}`}, "", 64 + 7},
		{"health", "", []string{"health", "--plaintext", addr, "rpckit.test.v1.Test"}, "SERVING\n", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := run(tc.stdin, tc.args...)
			if code != tc.code || out != tc.want {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit %d, stdout %q", code, out, errs, tc.code, tc.want)
			}
			if tc.code == 71 && errs != "rpckit: rpckit.test.v1.Test.Echo: PERMISSION_DENIED: no entry\n" {
				t.Fatalf("stderr %q", errs)
			}
		})
	}
}

// startPython runs testdata/python/server.py and returns its address; the
// server ends when the test does.
func startPython(t *testing.T) string {
	t.Helper()
	protoset := filepath.Join(t.TempDir(), "test.protoset")
	if err := rpctest.WriteProtoset(protoset); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	cmd := exec.CommandContext(ctx, "python3", "testdata/python/server.py", protoset)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close() // the server stops when its stdin closes
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		cancel()
	})
	port := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		port <- strings.TrimSpace(line)
	}()
	select {
	case p := <-port:
		if p == "" {
			t.Fatalf("python server did not start: %s", stderr.String())
		}
		return "127.0.0.1:" + p
	case <-time.After(30 * time.Second):
		t.Fatalf("python server did not print its port: %s", stderr.String())
	}
	return ""
}
