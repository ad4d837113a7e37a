package archtest

import (
	"fmt"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"strings"
)

// loadTypes returns the types of the packages matching patterns, listed
// from dir, as their export data has them: what an importer sees.
func loadTypes(dir string, patterns ...string) ([]*types.Package, error) {
	cmd := exec.Command("go", append([]string{"list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}={{.DepOnly}}"}, patterns...)...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -export: %w", err)
	}
	exports, roots := map[string]string{}, []string(nil)
	for line := range strings.Lines(string(out)) {
		parts := strings.Split(strings.TrimSpace(line), "=")
		exports[parts[0]] = parts[1]
		if parts[2] == "false" {
			roots = append(roots, parts[0])
		}
	}
	imp := importer.ForCompiler(token.NewFileSet(), "gc", func(path string) (io.ReadCloser, error) { return os.Open(exports[path]) })
	var pkgs []*types.Package
	for _, path := range roots {
		p, err := imp.Import(path)
		if err != nil {
			return nil, err
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

// apiTypesOK reports whether an exported API may use a type of the package
// at path: the standard library, this module, protobuf-go and grpc-go.
func apiTypesOK(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".") || under(path, module) ||
		under(path, "google.golang.org/protobuf") || under(path, "google.golang.org/grpc")
}

// foreignAPITypes reports the exported functions, methods, variables,
// constants and struct fields of p whose types come from other modules
// than apiTypesOK allows.
func foreignAPITypes(p *types.Package) []string {
	var bad []string
	check := func(what string, t types.Type) {
		if n := foreignNamed(t, map[types.Type]bool{}); n != "" {
			bad = append(bad, fmt.Sprintf("%s.%s uses %s", p.Path(), what, n))
		}
	}
	scope := p.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		tn, ok := obj.(*types.TypeName)
		if !ok {
			check(name, obj.Type())
			continue
		}
		exportedParts(tn, check)
	}
	return bad
}

// exportedParts calls check for the exported fields and methods of the
// named type tn (interface methods included), and for what an alias or a
// type defined on another type shows.
func exportedParts(tn *types.TypeName, check func(string, types.Type)) {
	name := tn.Name()
	if tn.IsAlias() {
		check(name, tn.Type())
		return
	}
	named, ok := tn.Type().(*types.Named)
	if !ok {
		return
	}
	for m := range named.Methods() {
		if m.Exported() {
			check(name+"."+m.Name(), m.Type())
		}
	}
	switch u := named.Underlying().(type) {
	case *types.Struct:
		for f := range u.Fields() {
			if f.Exported() {
				check(name+"."+f.Name(), f.Type())
			}
		}
	case *types.Interface:
		for m := range u.ExplicitMethods() {
			check(name+"."+m.Name(), m.Type())
		}
	default:
		check(name, u)
	}
}

// foreignNamed returns the first named type in t from a package that
// apiTypesOK refuses, or "".
func foreignNamed(t types.Type, seen map[types.Type]bool) string {
	if seen[t] {
		return ""
	}
	seen[t] = true
	switch t := t.(type) {
	case *types.Named:
		if obj := t.Obj(); obj.Pkg() != nil && !apiTypesOK(obj.Pkg().Path()) {
			return obj.Pkg().Path() + "." + obj.Name()
		}
		for a := range t.TypeArgs().Types() {
			if n := foreignNamed(a, seen); n != "" {
				return n
			}
		}
	case *types.Alias:
		return foreignNamed(types.Unalias(t), seen)
	case *types.Pointer:
		return foreignNamed(t.Elem(), seen)
	case *types.Slice:
		return foreignNamed(t.Elem(), seen)
	case *types.Array:
		return foreignNamed(t.Elem(), seen)
	case *types.Chan:
		return foreignNamed(t.Elem(), seen)
	case *types.Map:
		return first(foreignNamed(t.Key(), seen), foreignNamed(t.Elem(), seen))
	case *types.Signature:
		return first(tupleForeign(t.Params(), seen), tupleForeign(t.Results(), seen))
	case *types.Struct:
		for f := range t.Fields() {
			if n := foreignNamed(f.Type(), seen); n != "" && f.Exported() {
				return n
			}
		}
	}
	return ""
}

func tupleForeign(t *types.Tuple, seen map[types.Type]bool) string {
	for v := range t.Variables() {
		if n := foreignNamed(v.Type(), seen); n != "" {
			return n
		}
	}
	return ""
}

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
