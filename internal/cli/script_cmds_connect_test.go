package cli_test

import (
	"github.com/rogpeppe/go-internal/testscript"
	"github.com/rpckit/rpckit/internal/rpctest"
)

// connectserver NAME starts the fixture service on connect-go (Connect,
// gRPC and gRPC-Web over HTTP/1.1 and h2c; see rpctest.ConnectServer) and
// sets NAME to its host:port.
func init() {
	scriptCmds["connectserver"] = cmdConnectServer
}

func cmdConnectServer(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: connectserver NAME")
	}
	srv, err := rpctest.StartConnect()
	ts.Check(err)
	ts.Defer(srv.Stop)
	ts.Setenv(args[0], srv.Addr)
}
