package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// parseDir parses the non-test Go files of dir (relative to the module
// root when not absolute); generated files are left out.
func parseDir(dir string) ([]*ast.File, *token.FileSet, error) {
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, nil, err
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			return nil, nil, err
		}
		if !ast.IsGenerated(f) {
			files = append(files, f)
		}
	}
	return files, fset, nil
}

// importsOf returns the import paths of files.
func importsOf(files []*ast.File) []string {
	var out []string
	for _, f := range files {
		for _, s := range f.Imports {
			p, _ := strconv.Unquote(s.Path.Value)
			out = append(out, p)
		}
	}
	return out
}

// internalImports reports the imports of package path that an outside
// user of the module could not make: the module's internal packages other
// than path's own.
func internalImports(path string, imports []string) []string {
	var bad []string
	for _, imp := range imports {
		rest, ok := strings.CutPrefix(imp, module+"/")
		if !ok {
			continue
		}
		if i := strings.LastIndex("/"+rest+"/", "/internal/"); i >= 0 {
			parent := strings.TrimSuffix(rest[:i], "/")
			if parent != "" && under(path, parent) {
				continue
			}
			bad = append(bad, fmt.Sprintf("%s imports %s, which a user of the module cannot import", path, rest))
		}
	}
	return bad
}

// packageVars reports the package-level variables of files that are not
// in allow (keyed by the variable's name). Blank variables (var _ I = T{})
// are compile-time checks, not state.
func packageVars(pkg string, files []*ast.File, fset *token.FileSet, allow map[string]string) []string {
	var bad []string
	for _, f := range files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				for _, n := range s.(*ast.ValueSpec).Names {
					if _, ok := allow[n.Name]; ok || n.Name == "_" {
						continue
					}
					bad = append(bad, fmt.Sprintf("%s: package variable %s.%s is not in archtest's allowlist", fset.Position(n.Pos()), pkg, n.Name))
				}
			}
		}
	}
	return bad
}

// initPanics reports calls in init functions of files that panic: panic
// itself, log.Fatal*/log.Panic*, os.Exit and Must* helpers.
func initPanics(files []*ast.File, fset *token.FileSet) []string {
	var bad []string
	for _, f := range files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || fn.Name.Name != "init" || fn.Body == nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok && panics(c) {
					bad = append(bad, fmt.Sprintf("%s: init may panic (%s)", fset.Position(c.Pos()), callName(c)))
				}
				return true
			})
		}
	}
	return bad
}

func panics(c *ast.CallExpr) bool {
	name := callName(c)
	base := name[strings.LastIndex(name, ".")+1:]
	return name == "panic" || name == "os.Exit" || strings.HasPrefix(base, "Must") ||
		slices.Contains([]string{"log.Fatal", "log.Fatalf", "log.Fatalln", "log.Panic", "log.Panicf", "log.Panicln"}, name)
}

func callName(c *ast.CallExpr) string {
	switch fn := c.Fun.(type) {
	case *ast.Ident:
		return fn.Name
	case *ast.SelectorExpr:
		if x, ok := fn.X.(*ast.Ident); ok {
			return x.Name + "." + fn.Sel.Name
		}
		return fn.Sel.Name
	}
	return ""
}

// goDirs lists the directories under root holding Go files, skipping
// testdata, node_modules, hidden directories and generated code.
func goDirs(root string) ([]string, error) {
	var dirs []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if n := d.Name(); p != root && (n == "testdata" || n == "node_modules" || strings.HasPrefix(n, ".")) || p == filepath.Join(root, "internal", "gen") {
			return filepath.SkipDir
		}
		if m, _ := filepath.Glob(filepath.Join(p, "*.go")); len(m) > 0 {
			dirs = append(dirs, p)
		}
		return nil
	})
	return dirs, err
}
