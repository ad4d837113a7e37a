// Command thriftgen regenerates, with the Apache Thrift compiler (thrift
// --gen go, Debian's thrift-compiler), the Go code of
// thrift/testdata/bench.thrift, the baseline and oracle of rpckit's Thrift
// packages, and that of examples/ranking/thrift/ranking.thrift, the
// ranking service's Thrift side. The output is gofmt'd so the tree stays
// gofmt-clean.
//
//	go run ./internal/tools/thriftgen           # write the generated files
//	go run ./internal/tools/thriftgen -check    # fail if any file would change
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// job is one IDL file compiled into out; owned is the directory its code
// fills, removed before writing and compared whole by -check.
type job struct {
	source, out, owned string
}

var jobs = []job{
	{"thrift/testdata/bench.thrift", "internal/gen/thrift", "internal/gen/thrift"},
	{"examples/ranking/thrift/ranking.thrift", "examples/ranking/gen", "examples/ranking/gen/rankingthrift"},
}

// options of the Go generator: imports under the module, no -remote
// command-line clients.
func options(j job) string {
	return "go:package_prefix=github.com/rpckit/rpckit/" + j.out + "/,skip_remote"
}

func main() {
	check := flag.Bool("check", false, "report files that regeneration would change, write nothing")
	flag.Parse()
	if err := run(*check); err != nil {
		fmt.Fprintln(os.Stderr, "thriftgen:", err)
		os.Exit(1)
	}
}

// run regenerates every job's files and writes them or, with check,
// reports those that would change.
func run(check bool) error {
	var stale []string
	for _, j := range jobs {
		s, err := runJob(j, check)
		if err != nil {
			return err
		}
		stale = append(stale, s...)
	}
	return staleError(stale)
}

// runJob regenerates j's files and writes them or, with check, lists
// those that would change.
func runJob(j job, check bool) ([]string, error) {
	files, err := generate(j)
	if err != nil {
		return nil, err
	}
	if check {
		return compare(j, files), nil
	}
	return nil, write(j, files)
}

// staleError names the stale files, if there are any.
func staleError(stale []string) error {
	if len(stale) == 0 {
		return nil
	}
	slices.Sort(stale)
	return fmt.Errorf("generated code is stale, run 'go run ./internal/tools/thriftgen': %s", strings.Join(stale, ", "))
}

// generate runs the compiler into a temporary directory and returns the
// formatted files by their path in the repository.
func generate(j job) (map[string][]byte, error) {
	tmp, err := os.MkdirTemp("", "thriftgen")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	if err := compile(j, tmp); err != nil {
		return nil, err
	}
	return collect(tmp, j.out)
}

// compile runs the Thrift compiler on j's IDL, writing into dir.
func compile(j job, dir string) error {
	cmd := exec.Command("thrift", "--gen", options(j), "-out", dir, j.source)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %v\n%s", cmd, err, out)
	}
	return nil
}

// collect reads the files under tmp, formatted, by their path under out.
func collect(tmp, out string) (map[string][]byte, error) {
	files := map[string][]byte{}
	err := filepath.WalkDir(tmp, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		return addFile(files, tmp, path, out)
	})
	return files, err
}

// addFile adds the file at path under tmp to files, by its path under out.
func addFile(files map[string][]byte, tmp, path, out string) error {
	src, err := readFormatted(path)
	if err != nil {
		return err
	}
	rel, _ := filepath.Rel(tmp, path)
	files[filepath.Join(out, rel)] = src
	return nil
}

// readFormatted reads a file, gofmt'd when it is Go.
func readFormatted(path string) ([]byte, error) {
	src, err := os.ReadFile(path)
	if err != nil || !strings.HasSuffix(path, ".go") {
		return src, err
	}
	if src, err = format.Source(src); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return src, nil
}

// write replaces j's directory with files.
func write(j job, files map[string][]byte) error {
	if err := os.RemoveAll(j.owned); err != nil {
		return err
	}
	for name, src := range files {
		if err := writeFile(name, src); err != nil {
			return err
		}
	}
	return nil
}

// writeFile writes src to name, making its directory.
func writeFile(name string, src []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	return os.WriteFile(name, src, 0o644)
}

// compare returns the files that differ, are missing or would be removed.
func compare(j job, files map[string][]byte) []string {
	return append(changed(files), removed(j, files)...)
}

// changed lists the files that differ from what is on disk, or are
// missing.
func changed(files map[string][]byte) []string {
	var stale []string
	for name, src := range files {
		if old, err := os.ReadFile(name); err != nil || !bytes.Equal(old, src) {
			stale = append(stale, name)
		}
	}
	return stale
}

// removed lists the files under j.owned that regeneration would remove,
// and j.owned itself when it cannot be read whole.
func removed(j job, files map[string][]byte) []string {
	var stale []string
	err := filepath.WalkDir(j.owned, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && files[path] == nil {
			stale = append(stale, path)
		}
		return err
	})
	if err != nil {
		stale = append(stale, j.owned)
	}
	return stale
}
