package cli_test

import (
	"encoding/json"
	"os/exec"
	"path/filepath"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	scriptCmds["gooffline"] = cmdGoOffline
}

// cmdGoOffline (gooffline) lets the script run the go command on modules
// that rpckit new writes, offline: the build and module caches of the go
// running the tests, GOPROXY=off, -mod=mod so that go.mod may gain the
// requirements it lacks, and RPCKIT_ROOT, this checkout, for a replace
// directive and its go.sum.
func cmdGoOffline(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: gooffline")
	}
	out, err := exec.Command("go", "env", "-json", "GOCACHE", "GOMODCACHE", "GOPATH", "GOROOT").Output()
	ts.Check(err)
	var env map[string]string
	ts.Check(json.Unmarshal(out, &env))
	for name, value := range env {
		ts.Setenv(name, value)
	}
	root, err := filepath.Abs("../..")
	ts.Check(err)
	ts.Setenv("RPCKIT_ROOT", root)
	ts.Setenv("GOFLAGS", "-mod=mod")
	ts.Setenv("GOPROXY", "off")
	ts.Setenv("GOTOOLCHAIN", "local")
	ts.Setenv("GOENV", "off")
}
