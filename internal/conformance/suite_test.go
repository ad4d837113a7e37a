package conformance

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// summary is one "CONFORMANCE SUITE ..." line of the runner.
type summary struct {
	line                                 string
	passed                               bool
	successes, skipped, expected, failed int
}

var summaryRE = regexp.MustCompile(`CONFORMANCE SUITE (PASSED|FAILED): (\d+) successes, (\d+) skipped, (\d+) expected failures, (\d+) unexpected failures\.`)

func runSuite(t *testing.T, testeePkg string) {
	runner, source := buildRunner(t)
	testee := buildTestee(t, testeePkg)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, runner, "--enforce_recommended", "--output_dir", dir, testee)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), SourceEnv+"="+source)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	runErr := cmd.Run()
	out := stderr.String()

	sums := summaries(out)
	failures := failedTests(out)
	for _, s := range sums {
		t.Log(s.line)
	}
	if len(failures) > 0 {
		t.Errorf("%d conformance tests failed:\n%s", len(failures), strings.Join(failures, "\n"))
	}
	if len(sums) != 2 {
		t.Fatalf("runner printed %d suite summaries, want 2 (binary+JSON, text format); err %v; output:\n%s", len(sums), runErr, tail(out, 4000))
	}
	checkBinaryJSON(t, sums[0])
	if s := sums[1]; s.failed != 0 || s.expected != 0 {
		t.Errorf("text format suite: %s", s.line)
	}
	if runErr != nil {
		t.Errorf("runner: %v; output:\n%s", runErr, tail(out, 4000))
	}
}

// checkBinaryJSON holds the binary and JSON suite to everything passing:
// a skipped test would pass unnoticed, so none may be skipped.
func checkBinaryJSON(t *testing.T, s summary) {
	t.Helper()
	if !s.passed || s.failed != 0 || s.expected != 0 || s.skipped != 0 || s.successes == 0 {
		t.Errorf("binary and JSON suite: want every test to succeed, none skipped: %s", s.line)
	}
}

func summaries(out string) []summary {
	var sums []summary
	for _, m := range summaryRE.FindAllStringSubmatch(out, -1) {
		n := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
		sums = append(sums, summary{line: m[0], passed: m[1] == "PASSED",
			successes: n(2), skipped: n(3), expected: n(4), failed: n(5)})
	}
	return sums
}

// failedTests lists the runner's "ERROR, test=NAME: why request=...,
// response=..." lines as "NAME: why; response=...", and any other error
// it logged.
func failedTests(out string) []string {
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "ERROR, test="); ok {
			lines = append(lines, describeFailure(rest))
		} else if strings.Contains(line, "libprotobuf ERROR") || strings.Contains(line, "libprotobuf FATAL") {
			lines = append(lines, line)
		}
	}
	return lines
}

func describeFailure(s string) string {
	why, resp, _ := strings.Cut(s, " request=")
	if _, r, ok := strings.Cut(resp, ", response="); ok {
		return fmt.Sprintf("  %s; response=%s", why, shorten(r, 400))
	}
	return "  " + shorten(s, 600)
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}

var runnerOnce struct {
	sync.Once
	runner, source string
	err            error
}

// buildRunner runs build-runner.sh, which installs what it needs and
// builds the runner on first use and returns the cached one after.
func buildRunner(t *testing.T) (runner, source string) {
	t.Helper()
	runnerOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "bash", "build-runner.sh")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			runnerOnce.err = fmt.Errorf("build-runner.sh: %v\n%s", err, tail(stderr.String(), 4000))
			return
		}
		for _, line := range strings.Split(string(out), "\n") {
			if v, ok := strings.CutPrefix(line, "runner "); ok {
				runnerOnce.runner = v
			} else if v, ok := strings.CutPrefix(line, "source "); ok {
				runnerOnce.source = v
			}
		}
		if runnerOnce.runner == "" || runnerOnce.source == "" {
			runnerOnce.err = fmt.Errorf("build-runner.sh printed no runner or source:\n%s", out)
		}
	})
	if runnerOnce.err != nil {
		t.Fatal(runnerOnce.err)
	}
	return runnerOnce.runner, runnerOnce.source
}

// buildTestee builds the testee command in pkg into a temporary directory.
func buildTestee(t *testing.T, pkg string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), filepath.Base(pkg))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	// go test puts the bin directory of its toolchain first in PATH, so
	// "go" is the go command running the test.
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, pkg)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	return bin
}
