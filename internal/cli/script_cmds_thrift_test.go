package cli_test

import (
	"os"
	"path/filepath"

	"github.com/rogpeppe/go-internal/testscript"
)

// thriftdata copies thrift/testdata/bench.thrift and the specimens
// (small.binary, small.compact, medium.binary, ...) into $WORK.
func init() {
	scriptCmds["thriftdata"] = cmdThriftData
}

func cmdThriftData(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: thriftdata")
	}
	const dir = "../../thrift/testdata"
	files := []string{"bench.thrift"}
	specimens, err := os.ReadDir(filepath.Join(dir, "specimens"))
	ts.Check(err)
	for _, e := range specimens {
		files = append(files, filepath.Join("specimens", e.Name()))
	}
	for _, name := range files {
		b, err := os.ReadFile(filepath.Join(dir, name))
		ts.Check(err)
		ts.Check(os.WriteFile(ts.MkAbs(filepath.Base(name)), b, 0o644))
	}
}
