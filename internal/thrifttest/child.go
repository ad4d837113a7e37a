package thrifttest

import (
	"bufio"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/rpckit/rpckit/thrift/client"
	"github.com/rpckit/rpckit/thrift/wire"
)

// childEnv, set to "transport protocol" (as numbers), makes a test binary
// whose TestMain runs Main an Apache Go server of
// BenchService instead: it prints its address and serves until its stdin
// closes. Allocation counts and CPU time then measure the client alone,
// the server being another process.
const childEnv = "RPCKIT_THRIFTTEST_SERVE"

// Main is a TestMain's body for tests that serve with this package:
//
//	func TestMain(m *testing.M) { os.Exit(thrifttest.Main(m)) }
//
// It quiets the log of the Apache server, which reports the connections
// tests break on purpose, and then serves when ServeApart started the test
// binary, or runs the tests.
func Main(m *testing.M) int {
	slog.SetDefault(slog.New(slog.DiscardHandler))
	if code, served := serveChild(); served {
		return code
	}
	return m.Run()
}

// serveChild serves when ServeApart started the test binary, and reports
// the exit code and true; otherwise it returns false at once.
func serveChild() (code int, served bool) {
	v := os.Getenv(childEnv)
	if v == "" {
		return 0, false
	}
	var tr, p int
	if _, err := fmt.Sscan(v, &tr, &p); err != nil {
		fmt.Fprintln(os.Stderr, "bad", childEnv, err)
		return 2, true
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1, true
	}
	srv, err := start(ln, Setup{Transport: client.Transport(tr), Protocol: wire.Protocol(p)}, NewHandler())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1, true
	}
	go srv.AcceptLoop()
	fmt.Println(ln.Addr())
	io.Copy(io.Discard, os.Stdin)
	srv.Stop()
	return 0, true
}

// ServeApart starts the test binary as a server for s (its transport and
// protocol) in another process and returns its address; the process ends
// with the test. The binary's TestMain must run Main.
func ServeApart(t testing.TB, s Setup) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d %d", childEnv, s.Transport, s.Protocol))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("server process: %v", err)
	}
	return strings.TrimSpace(line)
}
