package client_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/rpckit/rpckit/thrift/client"
	"github.com/rpckit/rpckit/thrift/wire"
)

// serveEnv, set to "transport protocol" (as numbers), makes the test
// binary an Apache Go server of BenchService instead: it prints its
// address and serves until its stdin closes. Allocation counts and CPU
// time then measure the client alone, the server being another process.
const serveEnv = "RPCKIT_THRIFT_CLIENT_TEST_SERVE"

func serveChild(v string) int {
	var tr, p int
	if _, err := fmt.Sscan(v, &tr, &p); err != nil {
		fmt.Fprintln(os.Stderr, "bad", serveEnv, err)
		return 2
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	srv, err := startApache(ln, setup{transport: client.Transport(tr), protocol: wire.Protocol(p)}, newHandler())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	go srv.AcceptLoop()
	fmt.Println(ln.Addr())
	io.Copy(io.Discard, os.Stdin)
	srv.Stop()
	return 0
}

// serveApart starts the test binary as a server for s in another process
// and returns its address; the process ends with the test.
func serveApart(t testing.TB, s setup) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d %d", serveEnv, s.transport, s.protocol))
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
