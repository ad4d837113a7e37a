package client_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rpckit/rpckit/internal/gen/thrift/rpckit/bench"
	"github.com/rpckit/rpckit/internal/thriftfixture"
	"github.com/rpckit/rpckit/thrift/client"
	"github.com/rpckit/rpckit/thrift/wire"
)

// TestInteropPython calls BenchService served by the Apache Thrift Python
// library (testdata/bench_server.py, over the Python code the Apache
// compiler generates from bench.thrift at test time), every method and
// both exception kinds, and checks each result is the Apache Go client's
// against the same server. `make test` installs PyPI's thrift and the
// compiler.
func TestInteropPython(t *testing.T) {
	if out, err := exec.Command("python3", "-c", "import thrift.protocol.THeaderProtocol").CombinedOutput(); err != nil {
		t.Fatalf("python3 with PyPI's thrift is needed (make test installs it): %v\n%s", err, out)
	}
	gen := t.TempDir()
	if out, err := exec.Command("thrift", "--gen", "py", "-out", gen, "../testdata/bench.thrift").CombinedOutput(); err != nil {
		t.Fatalf("thrift --gen py (make test installs the compiler): %v\n%s", err, out)
	}
	for _, s := range []setup{
		{transport: client.Framed}, {transport: client.Buffered}, {transport: client.Framed, protocol: wire.Compact},
		{transport: client.Buffered, protocol: wire.Compact}, {transport: client.Header}, {transport: client.Header, protocol: wire.Compact},
	} {
		t.Run(s.name(), func(t *testing.T) {
			addr, events := startPython(t, gen, s)
			c := newClient(t, s, addr, nil)
			ac := apacheClient(t, s, addr)
			for _, k := range calls() {
				checkCall(t, s.protocol, c, ac, k)
			}
			checkPythonOneway(t, s.protocol, c, events)
			checkUnknownMethod(t, c)
		})
	}
}

// startPython starts the Python server for s and returns its address and
// the events its Notify prints.
func startPython(t *testing.T, gen string, s setup) (string, <-chan string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, "python3", filepath.Join("testdata", "bench_server.py"), gen, s.transport.String(), s.protocol.String())
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		if err := cmd.Wait(); err != nil && ctx.Err() == nil {
			t.Errorf("python server: %v\n%s", err, stderr.String())
		}
	})
	lines := bufio.NewScanner(stdout)
	var port int
	if !lines.Scan() {
		t.Fatalf("python server printed no port:\n%s", stderr.String())
	}
	if _, err := fmt.Sscanf(lines.Text(), "port %d", &port); err != nil {
		t.Fatalf("python server: %q: %v", lines.Text(), err)
	}
	events := make(chan string, 16)
	go func() {
		for lines.Scan() {
			if e, ok := strings.CutPrefix(lines.Text(), "event "); ok {
				events <- e
			}
		}
	}()
	return fmt.Sprintf("127.0.0.1:%d", port), events
}

func checkPythonOneway(t *testing.T, p wire.Protocol, c *client.Client, events <-chan string) {
	t.Helper()
	args, _ := thriftfixture.Encode(p, &bench.BenchServiceNotifyArgs{Event: "hello"})
	if err := c.Oneway(context.Background(), "Notify", args); err != nil {
		t.Fatal(err)
	}
	select {
	case e := <-events:
		if e != "hello" {
			t.Errorf("Notify delivered %q, want hello", e)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Notify never reached the python server")
	}
}

func checkUnknownMethod(t *testing.T, c *client.Client) {
	t.Helper()
	_, err := c.Call(context.Background(), "Nope", []byte{0}, nil)
	if ae, ok := errors.AsType[*client.ApplicationError](err); !ok || ae.Type != client.UnknownMethod {
		t.Errorf("Call(Nope) = %v, want an UNKNOWN_METHOD application exception", err)
	}
}
