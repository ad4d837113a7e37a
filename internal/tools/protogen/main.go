// Command protogen regenerates the Go code of the fixture and example .proto
// files without protoc: it compiles them with rpckit's schema package and
// feeds the request to protoc-gen-go and protoc-gen-go-grpc (go.mod tools),
// and, for the gateway's differential fixture only, protoc-gen-grpc-gateway.
//
//	go run ./internal/tools/protogen           # write the generated files
//	go run ./internal/tools/protogen -check    # fail if any file would change
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rpckit/rpckit/schema"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/pluginpb"
)

// roots are the directories whose .proto files are generated; each is also
// the import path of the files beneath it.
var roots = []string{"proto", "examples/ranking/proto"}

const module = "github.com/rpckit/rpckit"

// A plugin is a code generator run on the files whose names start with
// one of only (all files when only is empty).
type plugin struct {
	name string
	only []string
}

var plugins = []plugin{
	{name: "protoc-gen-go"},
	{name: "protoc-gen-go-grpc"},
	{name: "protoc-gen-grpc-gateway", only: []string{"rpckit/gwtest/"}},
}

func main() {
	check := flag.Bool("check", false, "report files that regeneration would change, write nothing")
	flag.Parse()
	if err := run(*check); err != nil {
		fmt.Fprintln(os.Stderr, "protogen:", err)
		os.Exit(1)
	}
}

func run(check bool) error {
	files, err := generateAll()
	switch {
	case err != nil:
		return err
	case check:
		return compare(files)
	}
	return write(files)
}

// generateAll returns the generated files of every root.
func generateAll() ([]*pluginpb.CodeGeneratorResponse_File, error) {
	var files []*pluginpb.CodeGeneratorResponse_File
	for _, root := range roots {
		out, err := generateRoot(root)
		if err != nil {
			return nil, err
		}
		files = append(files, out...)
	}
	return files, nil
}

func generateRoot(root string) ([]*pluginpb.CodeGeneratorResponse_File, error) {
	names, reg, err := compileRoot(root)
	if err != nil || len(names) == 0 {
		return nil, err
	}
	var out []*pluginpb.CodeGeneratorResponse_File
	for _, p := range plugins {
		files, err := p.generate(reg, names)
		if err != nil {
			return nil, err
		}
		out = append(out, files...)
	}
	return out, nil
}

// generate runs the plugin on the names it generates, if any.
func (p plugin) generate(reg *protoregistry.Files, names []string) ([]*pluginpb.CodeGeneratorResponse_File, error) {
	gen := p.selectFiles(names)
	if len(gen) == 0 {
		return nil, nil
	}
	return runPlugin(p.name, request(reg, gen))
}

// compileRoot compiles the .proto files under root, if any.
func compileRoot(root string) ([]string, *protoregistry.Files, error) {
	names, err := protoFiles(root)
	if err != nil || len(names) == 0 {
		return nil, nil, err
	}
	reg, err := schema.CompileFiles(context.Background(), schema.CompileOptions{
		Files: names, ImportPaths: []string{root},
	})
	return names, reg, err
}

// selectFiles keeps the names the plugin generates.
func (p plugin) selectFiles(names []string) []string {
	if len(p.only) == 0 {
		return names
	}
	var out []string
	for _, n := range names {
		if slices.ContainsFunc(p.only, func(prefix string) bool { return strings.HasPrefix(n, prefix) }) {
			out = append(out, n)
		}
	}
	return out
}

func protoFiles(root string) ([]string, error) {
	var names []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".proto") {
			rel, _ := filepath.Rel(root, path)
			names = append(names, filepath.ToSlash(rel))
		}
		return err
	})
	if os.IsNotExist(err) {
		return nil, nil
	}
	return names, err
}

// request builds a CodeGeneratorRequest with every file in dependency order.
func request(reg *protoregistry.Files, generate []string) *pluginpb.CodeGeneratorRequest {
	req := &pluginpb.CodeGeneratorRequest{
		FileToGenerate: generate,
		Parameter:      proto.String("module=" + module),
	}
	req.ProtoFile = schema.Protoset(fileDescriptors(reg, generate)...).File
	req.SourceFileDescriptors = sourceFiles(req.ProtoFile, generate)
	return req
}

// fileDescriptors looks up the named files in reg.
func fileDescriptors(reg *protoregistry.Files, names []string) []protoreflect.FileDescriptor {
	var fds []protoreflect.FileDescriptor
	for _, name := range names {
		fd, _ := reg.FindFileByPath(name)
		fds = append(fds, fd)
	}
	return fds
}

func sourceFiles(all []*descriptorpb.FileDescriptorProto, generate []string) []*descriptorpb.FileDescriptorProto {
	var out []*descriptorpb.FileDescriptorProto
	for _, f := range all {
		if slices.Contains(generate, f.GetName()) {
			out = append(out, f)
		}
	}
	return out
}

func runPlugin(name string, req *pluginpb.CodeGeneratorRequest) ([]*pluginpb.CodeGeneratorResponse_File, error) {
	out, err := pluginOutput(name, req)
	if err != nil {
		return nil, err
	}
	var resp pluginpb.CodeGeneratorResponse
	if err := proto.Unmarshal(out, &resp); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if resp.Error != nil {
		return nil, fmt.Errorf("%s: %s", name, resp.GetError())
	}
	return resp.File, nil
}

// pluginOutput runs `go tool name` on req and returns what it wrote.
func pluginOutput(name string, req *pluginpb.CodeGeneratorRequest) ([]byte, error) {
	in, err := proto.Marshal(req)
	if err != nil {
		return nil, err
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command("go", "tool", name)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(in), &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s: %v: %s", name, err, stderr.Bytes())
	}
	return stdout.Bytes(), nil
}

func write(files []*pluginpb.CodeGeneratorResponse_File) error {
	for _, f := range files {
		err := os.MkdirAll(filepath.Dir(f.GetName()), 0o755)
		if err == nil {
			err = os.WriteFile(f.GetName(), []byte(f.GetContent()), 0o644)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func compare(files []*pluginpb.CodeGeneratorResponse_File) error {
	if stale := staleFiles(files); len(stale) > 0 {
		return fmt.Errorf("generated code is stale, run 'go run ./internal/tools/protogen': %s", strings.Join(stale, ", "))
	}
	return nil
}

// staleFiles names the files whose content on disk is not as generated.
func staleFiles(files []*pluginpb.CodeGeneratorResponse_File) []string {
	var stale []string
	for _, f := range files {
		old, err := os.ReadFile(f.GetName())
		if err != nil || string(old) != f.GetContent() {
			stale = append(stale, f.GetName())
		}
	}
	return stale
}
