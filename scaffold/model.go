package scaffold

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// model is what the templates see.
type model struct {
	Module   string
	Name     string // of the binary, the image and the Kubernetes objects
	Services []service
	Imports  []goImport
	Protos   []string // the .proto files, relative to proto/, for `make gen`

	GoVersion, RpckitVersion, GRPCVersion, ProtobufVersion string
}

type goImport struct{ Alias, Path string }

type service struct {
	FullName  string     // acme.echo.v1.Echo
	GoName    string     // Echo: the stubs' names start with it
	Type      string     // the handler's type name
	File      string     // handler/FILE.go and handler/FILE_test.go
	Alias     string     // of the stubs' package
	Imports   []goImport // of the handler files: the stubs' package first
	Methods   []method
	HasUnary  bool
	HasStream bool
}

type method struct {
	Name    string
	In, Out string // qualified Go types
	Kind    string // unary, server, client or bidi
}

// newModel describes the module of the services in the files named
// (not those of their imports).
func newModel(gen *protogen.Plugin, module string, names []string) (*model, error) {
	m := &model{Module: module, Name: binaryName(module), GoVersion: goVersion,
		RpckitVersion: rpckitVersion(), GRPCVersion: grpcVersion, ProtobufVersion: protobufVersion}
	pkgNames := map[protogen.GoImportPath]string{}
	for _, f := range gen.Files {
		pkgNames[f.GoImportPath] = string(f.GoPackageName)
	}
	q := qualifier{all: new([]goImport), names: pkgNames, aliases: map[protogen.GoImportPath]string{}}
	types := map[string]bool{}
	for _, f := range gen.Files {
		if !f.Generate || !slices.Contains(names, f.Desc.Path()) {
			continue
		}
		for _, sd := range f.Services {
			m.Services = append(m.Services, q.service(f.GoImportPath, sd, types))
		}
	}
	if len(m.Services) == 0 {
		return nil, fmt.Errorf("scaffold: %s: no service to serve", strings.Join(names, ", "))
	}
	for _, s := range m.Services {
		if !slices.Contains(m.Imports, s.Imports[0]) {
			m.Imports = append(m.Imports, s.Imports[0])
		}
	}
	m.Protos = names
	return m, nil
}

// qualifier names the Go packages of the stubs in main.go and the
// handlers, each by a unique alias.
type qualifier struct {
	all     *[]goImport
	names   map[protogen.GoImportPath]string
	aliases map[protogen.GoImportPath]string
}

func (q qualifier) service(pkg protogen.GoImportPath, sd *protogen.Service, types map[string]bool) service {
	s := service{FullName: string(sd.Desc.FullName()), GoName: sd.GoName}
	s.Alias = q.alias(pkg)
	s.use(q, pkg)
	s.Type = s.GoName
	if types[s.Type] {
		s.Type = strings.ToUpper(s.Alias[:1]) + s.Alias[1:] + s.GoName
	}
	types[s.Type] = true
	s.File = snake(s.Type)
	for _, md := range sd.Methods {
		mt := method{Name: md.GoName, Kind: kindOf(md.Desc), In: q.ident(md.Input.GoIdent), Out: q.ident(md.Output.GoIdent)}
		s.HasUnary = s.HasUnary || mt.Kind == "unary"
		s.HasStream = s.HasStream || mt.Kind != "unary"
		s.Methods = append(s.Methods, mt)
		s.use(q, md.Input.GoIdent.GoImportPath)
		s.use(q, md.Output.GoIdent.GoImportPath)
	}
	return s
}

// use adds pkg to the imports of the service's handler files.
func (s *service) use(q qualifier, pkg protogen.GoImportPath) {
	imp := goImport{Alias: q.alias(pkg), Path: string(pkg)}
	if !slices.Contains(s.Imports, imp) {
		s.Imports = append(s.Imports, imp)
	}
}

func kindOf(md protoreflect.MethodDescriptor) string {
	switch {
	case md.IsStreamingClient() && md.IsStreamingServer():
		return "bidi"
	case md.IsStreamingClient():
		return "client"
	case md.IsStreamingServer():
		return "server"
	}
	return "unary"
}

// alias is the name of a package of stubs in main.go and the handlers.
func (q qualifier) alias(pkg protogen.GoImportPath) string {
	if a, ok := q.aliases[pkg]; ok {
		return a
	}
	name := q.names[pkg]
	if name == "" {
		name = path.Base(string(pkg))
	}
	a := name
	for n := 2; slices.ContainsFunc(*q.all, func(i goImport) bool { return i.Alias == a }) || reserved[a]; n++ {
		a = fmt.Sprintf("%s%d", name, n)
	}
	q.aliases[pkg] = a
	*q.all = append(*q.all, goImport{Alias: a, Path: string(pkg)})
	return a
}

// ident is a Go type of the stubs as main.go and the handlers write it.
func (q qualifier) ident(id protogen.GoIdent) string {
	return q.alias(id.GoImportPath) + "." + id.GoName
}

// reserved are the names the handler and main files use themselves.
var reserved = map[string]bool{"context": true, "grpc": true, "codes": true, "status": true, "handler": true,
	"server": true, "flag": true, "fmt": true, "os": true, "signal": true, "slog": true, "syscall": true,
	"time": true, "net": true, "testing": true, "bufconn": true, "insecure": true}

var nameRE = regexp.MustCompile(`[^a-z0-9-]+`)

// binaryName is the last element of the module path as a DNS label, for
// the binary, the image and the Kubernetes objects.
func binaryName(module string) string {
	base := module[strings.LastIndex(module, "/")+1:]
	if versionRE.MatchString(base) && strings.Contains(module, "/") {
		rest := module[:strings.LastIndex(module, "/")]
		base = rest[strings.LastIndex(rest, "/")+1:]
	}
	name := strings.Trim(nameRE.ReplaceAllString(strings.ToLower(base), "-"), "-")
	if name == "" {
		return "service"
	}
	if len(name) > 50 {
		name = strings.TrimRight(name[:50], "-")
	}
	return name
}

// snake turns EchoService into echo_service.
func snake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if 'A' <= r && r <= 'Z' {
			if i > 0 && !('A' <= rune(s[i-1]) && rune(s[i-1]) <= 'Z') {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}
