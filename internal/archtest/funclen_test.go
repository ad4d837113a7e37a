package archtest

import (
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"
	"slices"
	"testing"
)

// longFuncsAllowed lists the hand-written functions longer than
// maxFuncLines, keyed "package.Func" (methods "package.Type.Method"), each
// with why it stays whole; their doc comments say the same.
var longFuncsAllowed = map[string]string{
	"transcode.encoder.compactFields": "the compact encoder's fast path: one loop over a message's records, " +
		"a state machine kept whole for speed (split, Marshal Medium fell below its target)",
}

// medianOver lists the packages whose median is not yet under 10 lines,
// with what holds them there; the rule holds for every other package.
var medianOver = map[string]string{}

const (
	// maxFuncLines bounds a function's body, in lines.
	maxFuncLines = 120
	// maxMedianLines bounds the median body length of a package's
	// functions: under 10.
	maxMedianLines = 9.5
)

// TestFunctionLength holds every package's hand-written code (tests and
// generated files aside) to small functions: a median body under 10 lines
// and no body over maxFuncLines unless longFuncsAllowed says why. A body's
// length is the count of lines between its braces (1 for a one-line
// function).
func TestFunctionLength(t *testing.T) {
	for path := range listPackages(t) {
		files, fset, err := parseDir(filepath.Join(root, path))
		if err != nil {
			t.Fatal(err)
		}
		lens := map[string]int{}
		for _, f := range files {
			for name, n := range bodyLengths(f, fset) {
				lens[filepath.Base(path)+"."+name] = n
			}
		}
		for _, v := range lengthViolations(path, lens) {
			t.Error(v)
		}
	}
}

// TestFunctionLengthPlanted: a package with a long function and a long
// median is reported for both.
func TestFunctionLengthPlanted(t *testing.T) {
	lens := map[string]int{"p.a": 12, "p.b": 11, "p.c": maxFuncLines + 1}
	if v := lengthViolations("p", lens); len(v) != 2 {
		t.Errorf("planted violations: got %q, want the long function and the median", v)
	}
	if v := lengthViolations("p", map[string]int{"p.a": 3, "p.b": 9, "p.c": 40}); len(v) != 0 {
		t.Errorf("a package within the rule: got %q", v)
	}
}

// lengthViolations reports path's functions over maxFuncLines and a
// median over maxMedianLines, given each function's body length.
func lengthViolations(path string, lens map[string]int) []string {
	var all []int
	var bad []string
	for name, n := range lens {
		all = append(all, n)
		if _, ok := longFuncsAllowed[name]; n > maxFuncLines && !ok {
			bad = append(bad, fmt.Sprintf("%s: %s is %d lines long (at most %d)", path, name, n, maxFuncLines))
		}
	}
	if _, over := medianOver[path]; over {
		return bad
	}
	if m := median(all); m > maxMedianLines {
		bad = append(bad, fmt.Sprintf("%s: median function length %.1f lines (under 10 wanted)", path, m))
	}
	return bad
}

// bodyLengths returns the body length of each function and method of f.
func bodyLengths(f *ast.File, fset *token.FileSet) map[string]int {
	out := map[string]int{}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		name := fd.Name.Name
		if fd.Recv != nil && len(fd.Recv.List) == 1 {
			name = recvName(fd.Recv.List[0].Type) + "." + name
		}
		n := fset.Position(fd.Body.Rbrace).Line - fset.Position(fd.Body.Lbrace).Line - 1
		out[name] = max(n, 1)
	}
	return out
}

// recvName is the type name of a receiver: T for T, *T, T[P] and *T[P].
func recvName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return recvName(x.X)
	case *ast.IndexExpr:
		return recvName(x.X)
	case *ast.IndexListExpr:
		return recvName(x.X)
	case *ast.Ident:
		return x.Name
	}
	return "?"
}

func median(v []int) float64 {
	if len(v) == 0 {
		return 0
	}
	slices.Sort(v)
	if len(v)%2 == 1 {
		return float64(v[len(v)/2])
	}
	return float64(v[len(v)/2-1]+v[len(v)/2]) / 2
}
