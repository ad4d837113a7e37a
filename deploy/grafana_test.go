package deploy_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestDashboardsAreCurrent: deploy/grafana holds what dashgen writes today.
func TestDashboardsAreCurrent(t *testing.T) {
	statAll(t, "grafana/*.json", "../internal/tools/dashgen/*.go")
	cmd := exec.Command("go", "run", "./internal/tools/dashgen", "-check")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}

// statAll stats the files of patterns, read by other processes, so that go
// test's cache runs the test again when one of them changes.
func statAll(t *testing.T, patterns ...string) {
	t.Helper()
	for _, p := range patterns {
		files, err := filepath.Glob(p)
		if err != nil || len(files) == 0 {
			t.Fatalf("no files match %s (%v)", p, err)
		}
		for _, f := range files {
			if _, err := os.Stat(f); err != nil {
				t.Fatal(err)
			}
		}
	}
}
