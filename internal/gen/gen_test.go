// Package gen holds the Go code generated from proto/; this test checks it
// is what the .proto files produce today.
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
