package cli_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/rpckit/rpckit/internal/rpctest"
)

// connectserver NAME starts the fixture service on connect-go (Connect,
// gRPC and gRPC-Web over HTTP/1.1 and h2c; see rpctest.ConnectServer) and
// sets NAME to its host:port.
//
// bufcurl ARGS... runs `buf curl ARGS...`, buf from the Makefile's deps
// target (RPCKIT_BUF, else the rpckit cache's bin/buf).
//
// jsoneq A B compares two files of JSON documents, one after another, as
// values: key order and spacing aside, they must be the same.
func init() {
	scriptCmds["connectserver"] = cmdConnectServer
	scriptCmds["bufcurl"] = cmdBufCurl
	scriptCmds["jsoneq"] = cmdJSONEq
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

func cmdBufCurl(ts *testscript.TestScript, neg bool, args []string) {
	cmd := exec.Command(bufPath(ts), append([]string{"curl"}, args...)...)
	cmd.Dir = ts.MkAbs(".")
	cmd.Stdout, cmd.Stderr = ts.Stdout(), ts.Stderr()
	err := cmd.Run()
	if (err != nil) != neg {
		ts.Fatalf("buf curl: %v", err)
	}
}

// bufPath is where make deps installs buf.
func bufPath(ts *testscript.TestScript) string {
	if p := os.Getenv("RPCKIT_BUF"); p != "" {
		return p
	}
	cache := os.Getenv("RPCKIT_CACHE")
	if cache == "" {
		base, err := os.UserCacheDir()
		ts.Check(err)
		cache = filepath.Join(base, "rpckit")
	}
	p := filepath.Join(cache, "bin", "buf")
	if _, err := os.Stat(p); err != nil {
		ts.Fatalf("buf curl: %s missing; run make deps", p)
	}
	return p
}

func cmdJSONEq(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: jsoneq A B")
	}
	a, b := jsonDocs(ts, args[0]), jsonDocs(ts, args[1])
	if reflect.DeepEqual(a, b) == neg {
		ts.Fatalf("jsoneq %s %s: equal %v\n%s: %v\n%s: %v", args[0], args[1], !neg, args[0], a, args[1], b)
	}
}

func jsonDocs(ts *testscript.TestScript, name string) []any {
	dec := json.NewDecoder(bytes.NewReader([]byte(ts.ReadFile(name))))
	dec.UseNumber()
	var docs []any
	for {
		var v any
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			ts.Fatalf("jsoneq: %s: %v", name, err)
		}
		docs = append(docs, v)
	}
	if len(docs) == 0 {
		ts.Fatalf("jsoneq: %s has no JSON", name)
	}
	return docs
}
