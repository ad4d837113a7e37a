package thrifttest

import (
	"bufio"
	"context"
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rpckit/rpckit/internal/thriftfixture"
)

//go:embed testdata/bench_server.py
var benchServer []byte

// PythonGen checks python3 has PyPI's thrift, generates the Python code of
// bench.thrift with the Apache compiler into a temporary directory, and
// returns that directory, for ServePython. `make test` installs both.
func PythonGen(t testing.TB) string {
	t.Helper()
	if out, err := exec.Command("python3", "-c", "import thrift.protocol.THeaderProtocol").CombinedOutput(); err != nil {
		t.Fatalf("python3 with PyPI's thrift is needed (make test installs it): %v\n%s", err, out)
	}
	dir, err := thriftfixture.TestdataDir()
	if err != nil {
		t.Fatal(err)
	}
	gen := t.TempDir()
	if out, err := exec.Command("thrift", "--gen", "py", "-out", gen, filepath.Join(dir, "bench.thrift")).CombinedOutput(); err != nil {
		t.Fatalf("thrift --gen py (make test installs the compiler): %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(gen, "bench_server.py"), benchServer, 0o644); err != nil {
		t.Fatal(err)
	}
	return gen
}

// ServePython starts BenchService served by the Apache Thrift Python
// library for s (transport and protocol), over the code PythonGen made in
// gen, and returns its address and the events its Notify prints; the
// server ends with the test.
func ServePython(t testing.TB, gen string, s Setup) (string, <-chan string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, "python3", filepath.Join(gen, "bench_server.py"), gen, s.Transport.String(), s.Protocol.String())
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
