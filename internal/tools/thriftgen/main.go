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

func run(check bool) error {
	var stale []string
	for _, j := range jobs {
		files, err := generate(j)
		if err != nil {
			return err
		}
		if !check {
			if err := write(j, files); err != nil {
				return err
			}
			continue
		}
		stale = append(stale, compare(j, files)...)
	}
	if len(stale) > 0 {
		slices.Sort(stale)
		return fmt.Errorf("generated code is stale, run 'go run ./internal/tools/thriftgen': %s", strings.Join(stale, ", "))
	}
	return nil
}

// generate runs the compiler into a temporary directory and returns the
// formatted files by their path in the repository.
func generate(j job) (map[string][]byte, error) {
	tmp, err := os.MkdirTemp("", "thriftgen")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	cmd := exec.Command("thrift", "--gen", options(j), "-out", tmp, j.source)
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("%s: %v\n%s", cmd, err, out)
	}
	files := map[string][]byte{}
	err = filepath.WalkDir(tmp, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		return addFile(files, tmp, path, j.out)
	})
	return files, err
}

func addFile(files map[string][]byte, tmp, path, out string) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if strings.HasSuffix(path, ".go") {
		if src, err = format.Source(src); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	rel, _ := filepath.Rel(tmp, path)
	files[filepath.Join(out, rel)] = src
	return nil
}

func write(j job, files map[string][]byte) error {
	if err := os.RemoveAll(j.owned); err != nil {
		return err
	}
	for name, src := range files {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(name, src, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// compare returns the files that differ, are missing or would be removed.
func compare(j job, files map[string][]byte) []string {
	var stale []string
	for name, src := range files {
		old, err := os.ReadFile(name)
		if err != nil || !bytes.Equal(old, src) {
			stale = append(stale, name)
		}
	}
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
