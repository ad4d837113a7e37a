package maketest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// run runs one of internal/tools' scripts with env added and returns its
// combined output and exit code.
func run(t *testing.T, env []string, script string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(filepath.Join("..", script), args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("%s: %v", script, err)
		}
	}
	return string(out), cmd.ProcessState.ExitCode()
}

func TestQuietSucceedsSilently(t *testing.T) {
	log := filepath.Join(t.TempDir(), "sub", "deps.log")
	out, code := run(t, nil, "quiet.sh", log, "say hello", "sh", "-c", "echo hello; echo noise >&2")
	if code != 0 || out != "" {
		t.Fatalf("quiet.sh on success: exit %d, printed %q; want exit 0 and nothing", code, out)
	}
	got, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(got), "hello") || !strings.Contains(string(got), "noise") {
		t.Fatalf("log %q lacks the command's stdout and stderr", got)
	}
}

func TestQuietShowsLogOnFailure(t *testing.T) {
	log := filepath.Join(t.TempDir(), "deps.log")
	out, code := run(t, nil, "quiet.sh", log, "install thing", "sh", "-c", "echo E: unable to locate package; exit 100")
	if code != 100 {
		t.Errorf("exit %d, want the command's 100", code)
	}
	for _, want := range []string{"install thing failed (exit 100)", log, "E: unable to locate package"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// fakeGo writes a stand-in for the go command: `go test -list` lists FuzzA
// and FuzzB, and `go test -fuzz ^FuzzX$` prints and exits as body says for X.
func fakeGo(t *testing.T, fuzzA, fuzzB string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "go")
	script := `#!/bin/sh
case "$*" in
*-list*) printf 'FuzzA\nFuzzB\nok  \tpkg\t0.01s\n' ;;
*'^FuzzA$'*) ` + fuzzA + ` ;;
*'^FuzzB$'*) ` + fuzzB + ` ;;
*) echo "unexpected: $*"; exit 9 ;;
esac
`
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// deadlineRace is what Go 1.26's coordinator prints when it reports its own
// -fuzztime deadline as a failure (golang/go#75804).
const deadlineRace = `printf -- '--- FAIL: FuzzA (4.01s)\n    context deadline exceeded\nFAIL\nFAIL\tpkg\t4.2s\n'; exit 1`

const passing = `printf 'fuzz: elapsed: 4s, execs: 100\nPASS\nok  \tpkg\t4.1s\n'`

func TestFuzzGreenRunReadsGreen(t *testing.T) {
	goBin := fakeGo(t, deadlineRace, passing)
	out, code := run(t, []string{"GO=" + goBin}, "fuzz.sh", "1s", "example.com/pkg")
	if code != 0 {
		t.Fatalf("exit %d, want 0:\n%s", code, out)
	}
	if strings.Contains(out, "FAIL") {
		t.Errorf("a passing run prints FAIL:\n%s", out)
	}
	for _, want := range []string{"fuzz example.com/pkg FuzzA: ok", "fuzz example.com/pkg FuzzB: ok"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestFuzzFailingInputFails(t *testing.T) {
	failing := `printf -- '--- FAIL: FuzzB (0.5s)\n    context deadline exceeded\n    Failing input written to testdata/fuzz/FuzzB/abc\nFAIL\n'; exit 1`
	goBin := fakeGo(t, passing, failing)
	out, code := run(t, []string{"GO=" + goBin}, "fuzz.sh", "1s", "example.com/pkg")
	if code == 0 {
		t.Fatalf("exit 0 on a failing input:\n%s", out)
	}
	for _, want := range []string{"FuzzB: FAILED", "Failing input written to testdata/fuzz/FuzzB/abc"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
