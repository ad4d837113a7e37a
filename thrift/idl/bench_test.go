package idl

import (
	"io/fs"
	"os"
	"testing"
	"testing/fstest"
)

// BenchmarkParse parses bench.thrift (thrift/testdata), and all.thrift
// with its includes, from memory.
func BenchmarkParse(b *testing.B) {
	mem := fstest.MapFS{}
	err := fs.WalkDir(os.DirFS("testdata"), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		src, err := fs.ReadFile(os.DirFS("testdata"), p)
		mem[p] = &fstest.MapFile{Data: src}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	src, err := os.ReadFile(benchIDL)
	if err != nil {
		b.Fatal(err)
	}
	mem["bench.thrift"] = &fstest.MapFile{Data: src}
	for _, name := range []string{"bench.thrift", "all.thrift"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(mem[name].Data)))
			for b.Loop() {
				if _, err := ParseFile(name, Options{FS: mem, IncludePaths: []string{"include"}}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
