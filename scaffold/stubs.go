package scaffold

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/rpckit/rpckit/schema"
	"google.golang.org/protobuf/cmd/protoc-gen-go/internal_gengo"
	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/pluginpb"
)

// genDir is where the stubs go in the module: gen/ then the proto
// package's path (acme.echo.v1 -> gen/acme/echo/v1).
const genDir = "gen"

// compiled is the schema of the service: the files to generate and the
// Go package of each.
type compiled struct {
	files    []protoreflect.FileDescriptor // generated, in dependency order
	packages map[string]goPackage          // by file path
}

type goPackage struct {
	importPath string
	name       string
}

// compile compiles the .proto files and picks what to generate: them and
// every file they import outside google/.
func compile(ctx context.Context, opts Options, module string) (*compiled, error) {
	reg, err := schema.CompileFiles(ctx, schema.CompileOptions{Files: opts.Protos, ImportPaths: opts.ImportPaths})
	if err != nil {
		return nil, err
	}
	c := &compiled{packages: map[string]goPackage{}}
	seen := map[string]bool{}
	var visit func(fd protoreflect.FileDescriptor)
	visit = func(fd protoreflect.FileDescriptor) {
		if seen[fd.Path()] || strings.HasPrefix(fd.Path(), "google/") {
			return
		}
		seen[fd.Path()] = true
		imports := fd.Imports()
		for i := range imports.Len() {
			visit(imports.Get(i).FileDescriptor)
		}
		c.files = append(c.files, fd)
		c.packages[fd.Path()] = packageOf(fd, module)
	}
	for _, name := range protoNames(opts) { // in their order, for stable output
		fd, err := reg.FindFileByPath(name)
		if err != nil {
			return nil, fmt.Errorf("scaffold: %s: %w", name, err)
		}
		visit(fd)
	}
	if len(c.files) == 0 {
		return nil, fmt.Errorf("scaffold: nothing to generate from %s", strings.Join(opts.Protos, ", "))
	}
	return c, nil
}

// protoNames are opts.Protos as the compiler names them.
func protoNames(opts Options) []string {
	var out []string
	for _, f := range opts.Protos {
		out = append(out, relativeName(f, opts.ImportPaths))
	}
	return out
}

var nonIdent = regexp.MustCompile(`[^a-z0-9]`)
var versionRE = regexp.MustCompile(`^v[0-9]+([a-z]+[0-9]*)?$`)

// packageOf is the Go package of fd's stubs in the module: gen/ and the
// proto package's path, named after its last element (with the one before
// it when the last is a version: acme.echo.v1 -> echov1).
func packageOf(fd protoreflect.FileDescriptor, module string) goPackage {
	pkg := string(fd.Package())
	if pkg == "" {
		pkg = strings.TrimSuffix(path.Base(fd.Path()), ".proto")
	}
	parts := strings.Split(strings.ToLower(pkg), ".")
	name := parts[len(parts)-1]
	if versionRE.MatchString(name) && len(parts) > 1 {
		name = parts[len(parts)-2] + name
	}
	name = nonIdent.ReplaceAllString(name, "")
	if name == "" || name[0] >= '0' && name[0] <= '9' {
		name = "pb" + name
	}
	return goPackage{importPath: module + "/" + genDir + "/" + strings.Join(parts, "/"), name: name}
}

// generateStubs runs protoc-gen-go's generator and ours for gRPC on the
// compiled files, and returns the plugin (its view of the files) and the
// generated files by their path in the module.
func generateStubs(c *compiled, module string) (*protogen.Plugin, map[string][]byte, error) {
	gen, err := protogen.Options{}.New(c.request(module))
	if err != nil {
		return nil, nil, fmt.Errorf("scaffold: %w", err)
	}
	gen.SupportedFeatures = internal_gengo.SupportedFeatures
	gen.SupportedEditionsMinimum = internal_gengo.SupportedEditionsMinimum
	gen.SupportedEditionsMaximum = internal_gengo.SupportedEditionsMaximum
	for _, f := range gen.Files {
		if f.Generate {
			internal_gengo.GenerateFile(gen, f)
			generateGRPC(gen, f)
		}
	}
	resp := gen.Response()
	if resp.Error != nil {
		return nil, nil, fmt.Errorf("scaffold: %s", resp.GetError())
	}
	out := map[string][]byte{}
	for _, f := range resp.File {
		if _, dup := out[f.GetName()]; dup {
			return nil, nil, fmt.Errorf("scaffold: two .proto files of one package have the same name: both generate %s", f.GetName())
		}
		out[f.GetName()] = []byte(f.GetContent())
	}
	return gen, out, nil
}

// request is the CodeGeneratorRequest protoc would send for the files,
// with an M option placing each one's Go package under gen/.
func (c *compiled) request(module string) *pluginpb.CodeGeneratorRequest {
	params := []string{"module=" + module}
	var names []string
	for _, fd := range c.files {
		p := c.packages[fd.Path()]
		params = append(params, "M"+fd.Path()+"="+p.importPath+";"+p.name)
		names = append(names, fd.Path())
	}
	set := schema.Protoset(c.files...)
	var sources = set.File[:0:0]
	for _, f := range set.File {
		if slices.Contains(names, f.GetName()) {
			sources = append(sources, f)
		}
	}
	return &pluginpb.CodeGeneratorRequest{
		FileToGenerate:        names,
		Parameter:             proto.String(strings.Join(params, ",")),
		ProtoFile:             set.File,
		SourceFileDescriptors: sources,
	}
}
