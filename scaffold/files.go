package scaffold

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// relativeName is a .proto file's name as the compiler knows it: relative
// to the first import path holding it, as protoc does.
func relativeName(file string, importPaths []string) string {
	for _, ip := range importPaths {
		rel, err := filepath.Rel(ip, file)
		if err == nil && !strings.HasPrefix(rel, "..") && !filepath.IsAbs(rel) {
			if _, err := os.Stat(file); err == nil {
				return filepath.ToSlash(rel)
			}
		}
	}
	if len(importPaths) == 0 && filepath.IsAbs(file) {
		return filepath.Base(file)
	}
	return filepath.ToSlash(file)
}

// searchPaths are the directories the compiler looks for files in: the
// import paths, or else the directories of absolute Protos and ".".
func searchPaths(opts Options) []string {
	if len(opts.ImportPaths) > 0 {
		return opts.ImportPaths
	}
	var out []string
	for _, f := range opts.Protos {
		if filepath.IsAbs(f) {
			out = append(out, filepath.Dir(f))
		}
	}
	return append(out, ".")
}

// readSource reads the .proto file the compiler found under name.
func readSource(name string, opts Options) ([]byte, error) {
	for _, dir := range searchPaths(opts) {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err == nil {
			return data, nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("scaffold: %w", err)
		}
	}
	return nil, fmt.Errorf("scaffold: %s: not found in %s", name, strings.Join(searchPaths(opts), ", "))
}

// writeFile writes data to dir/name unless it holds data already, and
// says whether it wrote.
func writeFile(dir, name string, data []byte) (bool, error) {
	file := filepath.Join(dir, filepath.FromSlash(name))
	if old, err := os.ReadFile(file); err == nil && bytes.Equal(old, data) {
		return false, nil
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return false, fmt.Errorf("scaffold: %w", err)
	}
	if err := os.WriteFile(file, data, 0o644); err != nil {
		return false, fmt.Errorf("scaffold: %w", err)
	}
	return true, nil
}

// exists reports whether dir/name is there.
func exists(dir, name string) bool {
	_, err := os.Stat(filepath.Join(dir, filepath.FromSlash(name)))
	return err == nil
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
