package ui

import (
	"crypto/tls"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"testing/fstest"
	"time"

	"github.com/rpckit/rpckit/thrift/client"
	"github.com/rpckit/rpckit/thrift/idl"
	tinvoke "github.com/rpckit/rpckit/thrift/invoke"
	"github.com/rpckit/rpckit/thrift/wire"
)

// Bounds on the IDL files a Thrift target uploads.
const (
	maxIDLFiles = 64
	maxIDLBytes = 4 << 20 // all the files together
)

// thriftRequest is a connectRequest's Thrift side: the IDL files (the
// main files and those they include, by the names the includes use) and
// how to reach the service.
type thriftRequest struct {
	Files       []fileText `json:"files"`
	Transport   string     `json:"transport,omitempty"` // framed (default), buffered or header
	Protocol    string     `json:"protocol,omitempty"`  // binary (default) or compact
	Multiplexed string     `json:"multiplexed,omitempty"`
}

// thriftTarget is a Thrift service the page calls: the parsed IDL, its
// functions by Service/function, and a client.
type thriftTarget struct {
	client    *tinvoke.Client
	transport client.Transport // info headers need client.Header
	services  []serviceInfo
	fns       map[string]*idl.Function
}

// openThrift parses the uploaded IDL and makes the client of t.
func (t *target) openThrift(res resolved) error {
	tr := t.req.Thrift
	opts, err := thriftClientOptions(res.addr, t.req)
	if err != nil {
		return err
	}
	roots, err := parseIDL(tr.Files)
	if err != nil {
		return err
	}
	tt := &thriftTarget{fns: map[string]*idl.Function{}, transport: opts.Transport}
	tt.index(roots)
	if len(tt.fns) == 0 {
		return errors.New("ui: the IDL declares no service")
	}
	if tt.client, err = tinvoke.New(opts); err != nil {
		return fmt.Errorf("ui: %w", err)
	}
	t.thrift = tt
	return nil
}

// thriftClientOptions are the client's options of req: in TLS unless
// req is plaintext, with the TLS settings gRPC targets take.
func thriftClientOptions(addr string, req connectRequest) (client.Options, error) {
	tr := req.Thrift
	o := client.Options{Addr: addr, Multiplexed: strings.TrimSpace(tr.Multiplexed), DialTimeout: 5 * time.Second}
	var err error
	if !req.Plaintext {
		if o.TLS, err = thriftTLS(req.TLS); err != nil {
			return o, err
		}
	}
	if o.Transport, err = thriftTransport(tr.Transport); err != nil {
		return o, err
	}
	o.Protocol, err = thriftProtocol(tr.Protocol)
	return o, err
}

// thriftTLS is the TLS configuration of the page's settings, built as
// for gRPC targets and `call --idl`; a missing server name is the host's.
func thriftTLS(m tlsMaterial) (*tls.Config, error) {
	dir, err := os.MkdirTemp("", "rpckit-ui-")
	if err != nil {
		return nil, fmt.Errorf("ui: %w", err)
	}
	defer os.RemoveAll(dir) // read below
	opts, err := tlsFiles(dir, m)
	if err != nil {
		return nil, err
	}
	cfg, err := opts.Config()
	if err != nil {
		return nil, fmt.Errorf("ui: %w", err)
	}
	return cfg, nil
}

func thriftTransport(name string) (client.Transport, error) {
	if t, ok := client.TransportNamed(name); ok {
		return t, nil
	}
	return 0, fmt.Errorf("ui: Thrift transport %q: want framed, buffered or header", name)
}

func thriftProtocol(name string) (wire.Protocol, error) {
	if p, ok := wire.ProtocolNamed(name); ok {
		return p, nil
	}
	return 0, fmt.Errorf("ui: Thrift protocol %q: want binary or compact", name)
}

// parseIDL parses the uploaded files and returns the main ones: those no
// other file includes. A bad file's error says file:line:col.
func parseIDL(files []fileText) ([]*idl.File, error) {
	fsys, names, err := idlFS(files)
	if err != nil {
		return nil, err
	}
	parsed := map[string]*idl.File{}
	included := map[string]bool{}
	for _, name := range names {
		f, err := idl.ParseFile(name, idl.Options{FS: fsys})
		if err != nil {
			return nil, fmt.Errorf("ui: %w", err)
		}
		parsed[name] = f
		markIncluded(included, name, f)
	}
	var roots []*idl.File
	for _, name := range names {
		if !included[name] {
			roots = append(roots, parsed[name])
		}
	}
	return roots, nil
}

// markIncluded marks the files f (the file name) includes, by the names
// an include may resolve to: beside f, or from the top.
func markIncluded(included map[string]bool, name string, f *idl.File) {
	for _, inc := range f.Includes {
		included[path.Clean(path.Join(path.Dir(name), inc.Path))] = true
		included[path.Clean(inc.Path)] = true
	}
}

// idlFS checks the uploaded files' names, count and size, and serves them.
func idlFS(files []fileText) (fs.FS, []string, error) {
	if len(files) == 0 {
		return nil, nil, errors.New("ui: a Thrift target needs its IDL: upload the .thrift files")
	}
	if len(files) > maxIDLFiles {
		return nil, nil, fmt.Errorf("ui: %d IDL files: at most %d", len(files), maxIDLFiles)
	}
	fsys := fstest.MapFS{}
	var names []string
	total := 0
	for _, f := range files {
		name, err := idlName(f.Name)
		if err != nil {
			return nil, nil, err
		}
		if total += len(f.Content); total > maxIDLBytes {
			return nil, nil, fmt.Errorf("ui: the IDL files hold more than %d bytes", maxIDLBytes)
		}
		if _, dup := fsys[name]; dup {
			return nil, nil, fmt.Errorf("ui: uploaded file %q twice", name)
		}
		fsys[name] = &fstest.MapFile{Data: []byte(f.Content), Mode: 0o444}
		names = append(names, name)
	}
	slices.Sort(names)
	return fsys, names, nil
}

// idlName is an uploaded file's name, checked: a relative .thrift path.
func idlName(name string) (string, error) {
	clean := path.Clean(strings.ReplaceAll(name, "\\", "/"))
	if !strings.HasSuffix(clean, ".thrift") || path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") {
		return "", fmt.Errorf("ui: uploaded file %q: want a relative .thrift path", name)
	}
	return clean, nil
}

// index lists the services of the main files and of what they include,
// each file once, and keys their functions by Service/function (the
// service qualified by its file when two files declare the name).
func (tt *thriftTarget) index(roots []*idl.File) {
	seen := map[*idl.File]bool{}
	for _, f := range roots {
		tt.walk(f, seen)
	}
}

func (tt *thriftTarget) walk(f *idl.File, seen map[*idl.File]bool) {
	if seen[f] {
		return
	}
	seen[f] = true
	for _, svc := range f.Services {
		tt.addService(tt.serviceName(f, svc), svc)
	}
	for _, inc := range f.Includes {
		tt.walk(inc.File, seen)
	}
}

// serviceName is svc's name, qualified by its file's when taken.
func (tt *thriftTarget) serviceName(f *idl.File, svc *idl.Service) string {
	for _, si := range tt.services {
		if si.Name == svc.Name {
			return f.Name + "." + svc.Name
		}
	}
	return svc.Name
}

func (tt *thriftTarget) addService(name string, svc *idl.Service) {
	si := serviceInfo{Name: name, Doc: strings.TrimSpace(svc.Doc), Methods: []methodInfo{}}
	for s := svc; s != nil; s = s.Extends {
		for _, fn := range s.Functions {
			full := name + "/" + fn.Name
			if tt.fns[full] != nil {
				continue // overridden below in the extends chain
			}
			tt.fns[full] = fn
			si.Methods = append(si.Methods, thriftMethodInfo(full, fn))
		}
	}
	tt.services = append(tt.services, si)
}

func thriftMethodInfo(full string, fn *idl.Function) methodInfo {
	m := methodInfo{Name: fn.Name, FullName: full, Doc: strings.TrimSpace(fn.Doc), Oneway: fn.Oneway,
		Input: fieldList(fn.Args), Output: "void"}
	if fn.Return != nil {
		m.Output = fn.Return.String()
	}
	if fn.Throws != nil && len(fn.Throws.Fields) > 0 {
		m.Throws = fieldList(fn.Throws)
	}
	return m
}

// fieldList is a field list as IDL writes it: (1: i32 id, 2: string name).
func fieldList(s *idl.Struct) string {
	parts := make([]string, len(s.Fields))
	for i, f := range s.Fields {
		parts[i] = fmt.Sprintf("%d: %s %s", f.ID, f.Type, f.Name)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// function resolves Service/function (or Service.function).
func (tt *thriftTarget) function(name string) (*idl.Function, error) {
	name = strings.TrimPrefix(name, "/")
	if fn := tt.fns[name]; fn != nil {
		return fn, nil
	}
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		if fn := tt.fns[name[:i]+"/"+name[i+1:]]; fn != nil {
			return fn, nil
		}
	}
	return nil, fmt.Errorf("ui: no function %q in the IDL", name)
}

// signature is the function as IDL declares it, its doc comment first.
func signature(fn *idl.Function) string {
	var b strings.Builder
	if doc := strings.TrimSpace(fn.Doc); doc != "" {
		b.WriteString("/** " + strings.ReplaceAll(doc, "\n", "\n * ") + " */\n")
	}
	if fn.Oneway {
		b.WriteString("oneway ")
	}
	m := thriftMethodInfo("", fn)
	b.WriteString(m.Output + " " + fn.Name + m.Input)
	if m.Throws != "" {
		b.WriteString(" throws " + m.Throws)
	}
	return b.String()
}
