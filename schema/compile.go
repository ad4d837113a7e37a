package schema

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/bufbuild/protocompile"
	"github.com/bufbuild/protocompile/reporter"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// CompileOptions says which .proto files to compile and where their imports
// are found. The zero value compiles nothing.
type CompileOptions struct {
	// Files are the .proto files to compile, as paths relative to one of the
	// ImportPaths (or to the working directory when ImportPaths is empty).
	Files []string
	// ImportPaths are the directories searched for Files and their imports.
	// The bundled well-known, google/api and google/rpc files are searched
	// after them.
	ImportPaths []string
	// MaxErrors caps how many compile errors are reported; zero means 20.
	MaxErrors int
}

// CompileError lists the problems found in .proto sources, each with its
// file:line:col.
type CompileError struct {
	Errs []error
}

func (e *CompileError) Error() string {
	lines := make([]string, len(e.Errs))
	for i, err := range e.Errs {
		lines[i] = err.Error()
	}
	return "schema: " + strings.Join(lines, "\nschema: ")
}

// Compile parses and links the .proto files and returns a Source over them
// and everything they import.
func Compile(ctx context.Context, opts CompileOptions) (Source, error) {
	files, err := CompileFiles(ctx, opts)
	if err != nil {
		return nil, err
	}
	return FromFiles(files), nil
}

// CompileFiles is Compile returning the registry itself.
func CompileFiles(ctx context.Context, opts CompileOptions) (*protoregistry.Files, error) {
	names, importPaths := normalizeProtoPaths(opts.Files, opts.ImportPaths)
	disk := &diskNames{m: map[string]string{}}
	var errs []error
	maxErrs := opts.MaxErrors
	if maxErrs <= 0 {
		maxErrs = 20
	}
	var mu sync.Mutex
	c := protocompile.Compiler{
		Resolver: withBundled(protocompile.WithStandardImports(&protocompile.SourceResolver{
			ImportPaths: importPaths,
			Accessor:    disk.open,
		})),
		SourceInfoMode: protocompile.SourceInfoStandard,
		Reporter: reporter.NewReporter(func(e reporter.ErrorWithPos) error {
			mu.Lock()
			defer mu.Unlock()
			errs = append(errs, disk.rename(e))
			if len(errs) >= maxErrs {
				return e
			}
			return nil
		}, nil),
	}
	linked, err := c.Compile(ctx, names...)
	if len(errs) > 0 {
		return nil, &CompileError{Errs: errs}
	}
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	reg := new(protoregistry.Files)
	for _, fd := range linked {
		if err := registerWithDeps(reg, fd); err != nil {
			return nil, err
		}
	}
	return reg, nil
}

// normalizeProtoPaths makes file names relative to an import path, as protoc
// does. With no import paths, each file's directory is searched, and "." too.
func normalizeProtoPaths(files, importPaths []string) (names, paths []string) {
	paths = append([]string(nil), importPaths...)
	for _, f := range files {
		name, ok := relativeToAny(f, importPaths)
		if !ok && len(importPaths) == 0 && filepath.IsAbs(f) {
			paths = append(paths, filepath.Dir(f))
			name = filepath.Base(f)
		}
		names = append(names, filepath.ToSlash(name))
	}
	if len(paths) > 0 && len(importPaths) == 0 {
		paths = append(paths, ".")
	}
	return names, paths
}

func relativeToAny(file string, importPaths []string) (string, bool) {
	for _, ip := range importPaths {
		rel, err := filepath.Rel(ip, file)
		if err == nil && !strings.HasPrefix(rel, "..") && !filepath.IsAbs(rel) {
			if _, err := os.Stat(file); err == nil {
				return rel, true
			}
		}
	}
	return file, false
}

// diskNames remembers where each import-relative file was found on disk, so
// errors can name the path the user knows.
type diskNames struct {
	mu sync.Mutex
	m  map[string]string // paths opened, by slash-separated path
}

func (d *diskNames) open(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err == nil {
		d.mu.Lock()
		d.m[filepath.ToSlash(path)] = path
		d.mu.Unlock()
	}
	return f, err
}

// rename rewrites the file name in a positioned error to the disk path it
// was read from, when that differs.
func (d *diskNames) rename(e reporter.ErrorWithPos) error {
	pos := e.Start()
	name := pos.Filename
	d.mu.Lock()
	defer d.mu.Unlock()
	for disk := range d.m {
		if disk == name || strings.HasSuffix(disk, "/"+name) {
			name = disk
			break
		}
	}
	return fmt.Errorf("%s:%d:%d: %w", name, pos.Line, pos.Col, e.Unwrap())
}

func registerWithDeps(reg *protoregistry.Files, fd protoreflect.FileDescriptor) error {
	if _, err := reg.FindFileByPath(fd.Path()); err == nil {
		return nil
	}
	imports := fd.Imports()
	for i := range imports.Len() {
		if err := registerWithDeps(reg, imports.Get(i).FileDescriptor); err != nil {
			return err
		}
	}
	if err := reg.RegisterFile(fd); err != nil {
		return fmt.Errorf("schema: %s: %w", fd.Path(), err)
	}
	return nil
}
