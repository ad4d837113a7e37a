// Package gen holds the Go code generated from proto/ and, under thrift/,
// from thrift/testdata/bench.thrift; these tests check it is what the
// sources produce today.
package gen

import (
	"os/exec"
	"testing"
)

func TestGeneratedCodeIsCurrent(t *testing.T) {
	cmd := exec.Command("go", "run", "./internal/tools/protogen", "-check")
	cmd.Dir = "../.."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}

// TestThriftCodeIsCurrent checks internal/gen/thrift and
// examples/ranking/gen/rankingthrift against what the Apache Thrift
// compiler makes of thrift/testdata/bench.thrift and
// examples/ranking/thrift/ranking.thrift today.
func TestThriftCodeIsCurrent(t *testing.T) {
	if _, err := exec.LookPath("thrift"); err != nil {
		t.Fatal("the Apache Thrift compiler (thrift) is not installed; `make deps` installs it (Debian's thrift-compiler)")
	}
	cmd := exec.Command("go", "run", "./internal/tools/thriftgen", "-check")
	cmd.Dir = "../.."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}
