package client_test

import (
	"os"
	"testing"
	"time"

	"github.com/rpckit/rpckit/internal/thrifttest"
	"github.com/rpckit/rpckit/thrift/client"
)

// TestMain quiets the Apache server's logs of the connections tests
// break, and serves instead when the test binary is a server in another
// process (thrifttest.ServeApart), so that allocation counts and CPU time
// see the client alone.
func TestMain(m *testing.M) { os.Exit(thrifttest.Main(m)) }

func newClient(t testing.TB, s thrifttest.Setup, addr string, mod func(*client.Options)) *client.Client {
	t.Helper()
	opts := client.Options{Addr: addr, Transport: s.Transport, Protocol: s.Protocol,
		NonStrict: s.NonStrict, Multiplexed: s.Multiplexed, Timeout: 10 * time.Second}
	if mod != nil {
		mod(&opts)
	}
	c, err := client.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}
