package scaffold

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// removeStale deletes the stubs under gen/ that this generation did not
// write: those of .proto files renamed or gone, which would otherwise
// declare their types twice. Only *.pb.go files that say they are
// generated go; anything else under gen/ stays.
func (r *Result) removeStale(dir string, stubs map[string][]byte) error {
	root := filepath.Join(dir, genDir)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".pb.go") {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		name := filepath.ToSlash(rel)
		if _, ok := stubs[name]; ok || !isGenerated(path) {
			return nil
		}
		if err := os.Remove(path); err != nil {
			return err
		}
		r.Removed = append(r.Removed, name)
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("scaffold: %w", err)
	}
	return nil
}

// isGenerated reports whether a Go file starts with the line that marks
// generated code.
func isGenerated(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 200)
	n, _ := f.Read(head)
	line, _, _ := bytes.Cut(head[:n], []byte("\n"))
	return bytes.HasPrefix(line, []byte("// Code generated ")) && bytes.HasSuffix(bytes.TrimSpace(line), []byte("DO NOT EDIT."))
}
