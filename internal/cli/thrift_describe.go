package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rpckit/rpckit/internal/errtext"
	"github.com/rpckit/rpckit/thrift/idl"
	"github.com/spf13/pflag"
)

// idlFlags select a Thrift IDL file as the schema, instead of protobuf's.
// The include directories are schemaFlags' -I.
type idlFlags struct{ file string }

func (f *idlFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.file, "idl", "", "Thrift IDL `file` for the schema, its includes searched for in -I directories")
}

// check rejects a protobuf schema or a target given with --idl.
func (f *idlFlags) check(sf *schemaFlags, target string) error {
	if len(sf.protos) > 0 || len(sf.protosets) > 0 || sf.reflect {
		return usagef("--idl does not go with --proto, --protoset or --reflect")
	}
	if target != "" {
		return usagef("--idl reads its schema from a file, not from the target %q", target)
	}
	return nil
}

// loadIDL parses the --idl file and what it includes. Its errors name the
// place in the IDL, file:line:col.
func loadIDL(file string, includes []string) (*idl.File, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, err
	}
	opts := idl.Options{FS: os.DirFS("/")}
	for _, dir := range includes {
		d, err := filepath.Abs(dir)
		if err != nil {
			return nil, err
		}
		opts.IncludePaths = append(opts.IncludePaths, rootRel(d))
	}
	f, err := idl.ParseFile(rootRel(abs), opts)
	var ie *idl.Error
	if errors.As(err, &ie) {
		pos := ie.Pos
		pos.File = shownPath(pos.File)
		known := append([]string{ie.Pos.File, rootRel(filepath.Dir(abs))}, opts.IncludePaths...)
		return nil, fmt.Errorf("%s: %s", pos, shownPaths(ie.Msg, known))
	}
	return f, err
}

// shownPaths rewrites the known paths of os.DirFS("/") in msg as
// shownPath does, the longest first.
func shownPaths(msg string, known []string) string {
	slices.SortFunc(known, func(a, b string) int { return len(b) - len(a) })
	var pairs []string
	for _, p := range known {
		pairs = append(pairs, p, shownPath(p))
	}
	return strings.NewReplacer(pairs...).Replace(msg)
}

// rootRel is an absolute path as os.DirFS("/") names it.
func rootRel(abs string) string {
	return strings.TrimPrefix(filepath.ToSlash(abs), "/")
}

// shownPath turns a path of os.DirFS("/") back into one for the user:
// relative to the working directory when that is no longer.
func shownPath(p string) string {
	abs := "/" + p
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, abs); err == nil && len(rel) <= len(abs) {
			return rel
		}
	}
	return abs
}

// idlSymbol is one declaration describe --idl can show.
type idlSymbol struct {
	name  string // qualified: file.Name, file.Service.function
	kind  string
	write func(w *idlText)
	file  *idl.File
	decl  any // *idl.Struct, *idl.Service, ...
}

// idlSymbols indexes the declarations of a file and those it includes,
// each under its qualified name.
type idlSymbols struct {
	list   []*idlSymbol
	byName map[string]*idlSymbol
	short  map[string][]*idlSymbol // names without the file's
}

func newIDLSymbols(root *idl.File) *idlSymbols {
	s := &idlSymbols{byName: map[string]*idlSymbol{}, short: map[string][]*idlSymbol{}}
	seen := map[*idl.File]bool{}
	var walk func(f *idl.File)
	walk = func(f *idl.File) {
		if seen[f] {
			return
		}
		seen[f] = true
		s.addFile(f)
		for _, inc := range f.Includes {
			walk(inc.File)
		}
	}
	walk(root)
	return s
}

func (s *idlSymbols) add(f *idl.File, name, kind string, decl any, write func(w *idlText)) {
	sym := &idlSymbol{name: f.Name + "." + name, kind: kind, write: write, file: f, decl: decl}
	s.list = append(s.list, sym)
	s.byName[sym.name] = sym
	s.short[name] = append(s.short[name], sym)
}

func (s *idlSymbols) addFile(f *idl.File) {
	for _, svc := range f.Services {
		s.add(f, svc.Name, "service", svc, func(w *idlText) { w.service(svc) })
	}
	for _, kind := range []idl.Kind{idl.StructKind, idl.UnionKind, idl.ExceptionKind} {
		for _, st := range f.Structs {
			if st.Kind == kind {
				s.add(f, st.Name, kind.String(), st, func(w *idlText) { w.structDecl(st) })
			}
		}
	}
	for _, e := range f.Enums {
		s.add(f, e.Name, "enum", e, func(w *idlText) { w.enum(e) })
	}
	for _, td := range f.Typedefs {
		s.add(f, td.Name, "typedef", td, func(w *idlText) { w.typedef(td) })
	}
	for _, c := range f.Consts {
		s.add(f, c.Name, "const", c, func(w *idlText) { w.constDecl(c) })
	}
	for _, svc := range f.Services {
		for _, fn := range svc.Functions {
			s.add(f, svc.Name+"."+fn.Name, "function", fn, func(w *idlText) {
				w.function(fn)
				w.b.WriteString("\n")
			})
		}
	}
}

// find looks a name up, qualified or, when only one file declares it,
// not; an unknown name's error names the closest known ones.
func (s *idlSymbols) find(name string) (*idlSymbol, error) {
	name = strings.Replace(strings.TrimPrefix(name, "/"), "/", ".", 1)
	if sym, ok := s.byName[name]; ok {
		return sym, nil
	}
	switch hits := s.short[name]; len(hits) {
	case 1:
		return hits[0], nil
	case 0:
	default:
		names := make([]string, len(hits))
		for i, h := range hits {
			names[i] = h.name
		}
		return nil, fmt.Errorf("%q is declared in more than one file: say which, as %s", name, strings.Join(names, " or "))
	}
	names := slices.Collect(func(yield func(string) bool) {
		for _, sym := range s.list {
			if !yield(sym.name) || !yield(strings.TrimPrefix(sym.name, sym.file.Name+".")) {
				return
			}
		}
	})
	return nil, fmt.Errorf("no symbol %q in the IDL%s", name, errtext.DidYouMean(errtext.Closest(name, names, 3)))
}

// describeIDL prints one symbol as IDL source, or, with no symbol, lists
// every declaration of the file and its includes by kind.
func describeIDL(out io.Writer, f *idl.File, symbol string) error {
	syms := newIDLSymbols(f)
	if symbol == "" {
		for _, sym := range syms.list {
			if sym.kind != "function" {
				fmt.Fprintf(out, "%s %s\n", sym.kind, sym.name)
			}
		}
		return nil
	}
	sym, err := syms.find(symbol)
	if err != nil {
		return err
	}
	w := &idlText{from: sym.file}
	sym.write(w)
	fmt.Fprintf(out, "%s is %s %s:\n%s", sym.name, article(sym.kind), sym.kind, w.b.String())
	return nil
}

// listIDL prints the services of the file and its includes, or the
// functions of one service, those it inherits included.
func listIDL(out io.Writer, f *idl.File, service string) error {
	syms := newIDLSymbols(f)
	if service == "" {
		for _, sym := range syms.list {
			if sym.kind == "service" {
				fmt.Fprintln(out, sym.name)
			}
		}
		return nil
	}
	sym, err := syms.find(service)
	if err != nil {
		return err
	}
	if sym.kind != "service" {
		return fmt.Errorf("%s is %s %s, not a service", sym.name, article(sym.kind), sym.kind)
	}
	for s := sym.decl.(*idl.Service); s != nil; s = s.Extends {
		for _, fn := range s.Functions {
			fmt.Fprintf(out, "%s.%s\n", sym.name, fn.Name)
		}
	}
	return nil
}

func runDescribeIDL(stdio Stdio, idf *idlFlags, sf *schemaFlags, target string, rest []string, template bool) error {
	if err := idf.check(sf, target); err != nil {
		return err
	}
	f, err := loadIDL(idf.file, sf.importPaths)
	if err != nil {
		return err
	}
	if template {
		var buf bytes.Buffer
		if err := thriftTemplate(&buf, f, strings.Join(rest, "")); err != nil {
			return err
		}
		_, err = stdio.Out.Write(buf.Bytes())
		return err
	}
	return describeIDL(stdio.Out, f, strings.Join(rest, ""))
}

func runListIDL(stdio Stdio, idf *idlFlags, sf *schemaFlags, target string, rest []string) error {
	if err := idf.check(sf, target); err != nil {
		return err
	}
	f, err := loadIDL(idf.file, sf.importPaths)
	if err != nil {
		return err
	}
	return listIDL(stdio.Out, f, strings.Join(rest, ""))
}
