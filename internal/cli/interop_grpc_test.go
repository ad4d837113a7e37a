package cli_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/rpckit/rpckit/internal/cli"
	"github.com/rpckit/rpckit/internal/rpctest"
	"google.golang.org/grpc"
	"google.golang.org/grpc/interop"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
)

// TestInteropGRPCGo runs the standard interop cases with rpckit call as the
// client, against grpc-go's own interop TestService found by reflection.
func TestInteropGRPCGo(t *testing.T) {
	var runIn func(t *testing.T, stdin io.Reader, args ...string) (string, string, int)
	srv, err := rpctest.Start(rpctest.Options{Register: func(s *grpc.Server) {
		testgrpc.RegisterTestServiceServer(s, interop.NewTestServer())
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	run := func(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
		t.Helper()
		return runIn(t, strings.NewReader(stdin), args...)
	}
	runIn = func(t *testing.T, stdin io.Reader, args ...string) (stdout, stderr string, code int) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		var out, errb bytes.Buffer
		args = append([]string{"call", "--plaintext", srv.Addr}, args...)
		code = cli.Main(ctx, args, cli.Stdio{In: stdin, Out: &out, Err: &errb})
		return out.String(), errb.String(), code
	}
	const svc = "grpc.testing.TestService/"

	t.Run("empty_unary", func(t *testing.T) {
		out, errs, code := run(t, "", svc+"EmptyCall", "-d", "{}")
		if code != 0 || out != "{}\n" {
			t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
		}
	})
	t.Run("large_unary", func(t *testing.T) {
		req := fmt.Sprintf(`{"responseSize":314159,"payload":{"body":%q}}`, zeros(271828))
		out, errs, code := run(t, "", svc+"UnaryCall", "-d", req)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if got := bodySizes(t, out); len(got) != 1 || got[0] != 314159 {
			t.Fatalf("response body sizes %v, want [314159]", got)
		}
	})
	t.Run("client_streaming", func(t *testing.T) {
		var in strings.Builder
		for _, n := range []int{27182, 8, 1828, 45904} {
			fmt.Fprintf(&in, `{"payload":{"body":%q}}`+"\n", zeros(n))
		}
		out, errs, code := run(t, in.String(), svc+"StreamingInputCall")
		if code != 0 || out != `{"aggregatedPayloadSize":74922}`+"\n" {
			t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
		}
	})
	t.Run("server_streaming", func(t *testing.T) {
		req := `{"responseParameters":[{"size":31415},{"size":9},{"size":2653},{"size":58979}]}`
		out, errs, code := run(t, "", svc+"StreamingOutputCall", "-d", req)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if got := fmt.Sprint(bodySizes(t, out)); got != "[31415 9 2653 58979]" {
			t.Fatalf("response body sizes %s", got)
		}
	})
	t.Run("ping_pong", func(t *testing.T) {
		var in strings.Builder
		for i, n := range []int{31415, 9, 2653, 58979} {
			req := []int{27182, 8, 1828, 45904}[i]
			fmt.Fprintf(&in, `{"responseParameters":[{"size":%d}],"payload":{"body":%q}}`+"\n", n, zeros(req))
		}
		out, errs, code := run(t, in.String(), svc+"FullDuplexCall")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if got := fmt.Sprint(bodySizes(t, out)); got != "[31415 9 2653 58979]" {
			t.Fatalf("response body sizes %s", got)
		}
	})
	t.Run("status_code_and_message", func(t *testing.T) {
		req := `{"responseStatus":{"code":2,"message":"test status message"}}`
		for _, method := range []string{"UnaryCall", "FullDuplexCall"} {
			_, errs, code := run(t, req, svc+method, "-d", req)
			want := "rpckit: grpc.testing.TestService." + method + ": UNKNOWN: test status message\n"
			if code != 64+2 || errs != want {
				t.Errorf("%s: exit %d, stderr %q, want exit 66 and %q", method, code, errs, want)
			}
		}
	})
	t.Run("custom_metadata", func(t *testing.T) {
		reqs := map[string]string{
			"UnaryCall":      `{"responseSize":1,"payload":{"body":""}}`,
			"FullDuplexCall": `{"responseParameters":[{"size":1}],"payload":{"body":""}}`,
		}
		for _, method := range []string{"UnaryCall", "FullDuplexCall"} {
			_, errs, code := run(t, "", svc+method, "-v", "-d", reqs[method],
				"-H", "x-grpc-test-echo-initial: test_initial_metadata_value",
				"-H", "x-grpc-test-echo-trailing-bin: "+base64.StdEncoding.EncodeToString([]byte{0xab, 0xab, 0xab}))
			if code != 0 {
				t.Fatalf("%s: exit %d: %s", method, code, errs)
			}
			headers, trailers, _ := strings.Cut(errs, "Response trailers:")
			if !strings.Contains(headers, "  x-grpc-test-echo-initial: test_initial_metadata_value\n") {
				t.Errorf("%s: initial metadata not echoed in headers:\n%s", method, errs)
			}
			if !strings.Contains(trailers, "  x-grpc-test-echo-trailing-bin: q6ur\n") {
				t.Errorf("%s: trailing metadata not echoed in trailers:\n%s", method, errs)
			}
		}
	})
	t.Run("timeout_on_sleeping_server", func(t *testing.T) {
		// The request stream stays open, so only the deadline ends the call.
		pr, pw := io.Pipe()
		defer pw.Close()
		go fmt.Fprintf(pw, `{"payload":{"body":%q}}`, zeros(27182))
		_, errs, code := runIn(t, pr, svc+"FullDuplexCall", "--timeout", "1ms")
		if code != 64+4 || !strings.Contains(errs, "DEADLINE_EXCEEDED") {
			t.Fatalf("exit %d, stderr %q; want 68 and DEADLINE_EXCEEDED", code, errs)
		}
	})
}

func zeros(n int) string { return base64.StdEncoding.EncodeToString(make([]byte, n)) }

// bodySizes decodes each JSON line of out and returns the length of its
// payload body.
func bodySizes(t *testing.T, out string) []int {
	t.Helper()
	var sizes []int
	dec := json.NewDecoder(strings.NewReader(out))
	for dec.More() {
		var resp struct {
			Payload struct {
				Body []byte `json:"body"`
			} `json:"payload"`
		}
		if err := dec.Decode(&resp); err != nil {
			t.Fatalf("bad JSON output: %v", err)
		}
		sizes = append(sizes, len(resp.Payload.Body))
	}
	return sizes
}
