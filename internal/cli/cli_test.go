package cli_test

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/rpckit/rpckit/internal/cli"
	"github.com/rpckit/rpckit/internal/rpctest"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"rpckit": func() {
			ctx, stop := cli.NotifyContext(context.Background())
			code := cli.Main(ctx, os.Args[1:], cli.Stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr})
			stop()
			os.Exit(code)
		},
	})
}

// TestScripts runs testdata/script/*.txtar. Each script gets its own
// servers, named by environment variables:
//
//	PLAIN   plaintext, reflection v1 and v1alpha
//	ALPHA   plaintext, reflection v1alpha only
//	NOREFL  plaintext, no reflection
//	TLS     TLS (certificates in $WORK/certs: ca.pem, client.pem, client-key.pem)
//	MTLS    TLS requiring a client certificate
//	UNIX    a Unix socket target (unix:path)
//	HTTP    http://127.0.0.1:port of an HTTP/1.1 and h2c server: /ok answers
//	        200, /fail 503, anything else 404
//
// $WORK/test.protoset describes the fixture service, and
// $WORK/protos/rpckit/test/v1/test.proto is its source.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:   "testdata/script",
		Setup: setupServers,
		Cmds:  scriptCmds,
	})
}

func setupServers(env *testscript.Env) error {
	certs, err := rpctest.MakeCerts(mkdir(env, "certs"))
	if err != nil {
		return err
	}
	servers := map[string]rpctest.Options{
		"PLAIN":  {},
		"ALPHA":  {Reflection: rpctest.ReflectionV1Alpha},
		"NOREFL": {Reflection: rpctest.ReflectionNone},
		"TLS":    {TLS: certs.ServerTLS(false)},
		"MTLS":   {TLS: certs.ServerTLS(true)},
		"UNIX":   {UnixSocket: filepath.Join(mkdir(env, "sock"), "test.sock")},
	}
	for name, opts := range servers {
		srv, err := rpctest.Start(opts)
		if err != nil {
			return err
		}
		env.Defer(srv.Stop)
		env.Setenv(name, srv.Addr)
	}
	httpAddr, stop, err := startHTTP()
	if err != nil {
		return err
	}
	env.Defer(stop)
	env.Setenv("HTTP", "http://"+httpAddr)
	if err := copyFile("../../proto/rpckit/test/v1/test.proto", filepath.Join(mkdir(env, "protos/rpckit/test/v1"), "test.proto")); err != nil {
		return err
	}
	return rpctest.WriteProtoset(filepath.Join(env.WorkDir, "test.protoset"))
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}

func mkdir(env *testscript.Env, name string) string {
	dir := filepath.Join(env.WorkDir, name)
	_ = os.MkdirAll(dir, 0o755)
	return dir
}

// startHTTP serves HTTP/1.1 and h2c on 127.0.0.1.
func startHTTP() (string, func(), error) {
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"proto":%q}`, r.Proto)
	})
	mux.HandleFunc("/fail", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "unavailable", http.StatusServiceUnavailable)
	})
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, Protocols: new(http.Protocols)}
	srv.Protocols.SetHTTP1(true)
	srv.Protocols.SetUnencryptedHTTP2(true)
	go srv.Serve(lis)
	return lis.Addr().String(), func() { srv.Close() }, nil
}
