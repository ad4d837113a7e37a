package cli_test

import (
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
			os.Exit(cli.Main(context.Background(), os.Args[1:], cli.Stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}))
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
//
// $WORK/test.protoset describes the fixture service, and
// $WORK/protos/rpckit/test/v1/test.proto is its source.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:   "testdata/script",
		Setup: setupServers,
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
