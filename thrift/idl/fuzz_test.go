package idl

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
	"time"
)

// FuzzParse: any input parses or fails with an *Error at a position in a
// file, never panics, and finishes in bounded time; what parses renders.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.thrift")
	for _, name := range append(files, benchIDL) {
		src, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(src))
	}
	for _, s := range []string{
		"include \"inc.thrift\"\nstruct S { 1: inc.T t = {\"a\": inc.C} }",
		"include \"self.thrift\"",
		"typedef B A\ntypedef A B",
		"const list<i32> L = [1, 2]\nconst list<double> D = L",
		"enum E { A = 0x7fffffff, B }",
		"service S extends S {}",
		"struct S { -1: i32 a, 0: i32 b, i32 c }",
	} {
		f.Add(s)
	}
	fsys := fstest.MapFS{
		"inc.thrift":  {Data: []byte("struct T { 1: i32 a }\nconst i32 C = 3\nenum E { X }")},
		"self.thrift": {Data: []byte("include \"self.thrift\"")},
	}
	f.Fuzz(func(t *testing.T, src string) {
		start := time.Now()
		file, err := Parse("fuzz.thrift", []byte(src), Options{FS: fsys})
		if time.Since(start) > 10*time.Second {
			t.Fatalf("parsing took %v", time.Since(start))
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Pos.File == "" || e.Pos.Line < 1 || e.Pos.Col < 1 {
				t.Fatalf("error without a position: %#v", err)
			}
			return
		}
		render(file)
		for _, s := range file.Structs {
			for _, fd := range s.Fields {
				_ = fd.Type.String()
			}
		}
	})
}
