package transcode_test

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/idl"
)

var (
	benchOnce  sync.Once
	benchFile  *idl.File
	benchErr   error
	benchCache dynamic.Cache
)

// benchType returns the compiled Type of the named struct of bench.thrift.
func benchType(t testing.TB, name string) *dynamic.Type {
	t.Helper()
	benchOnce.Do(func() {
		src, err := os.ReadFile("../testdata/bench.thrift")
		if err != nil {
			benchErr = err
			return
		}
		benchFile, benchErr = idl.Parse("bench.thrift", src, idl.Options{})
	})
	if benchErr != nil {
		t.Fatal(benchErr)
	}
	it := benchFile.Type(name)
	if it == nil {
		t.Fatalf("no type %s in bench.thrift", name)
	}
	return benchCache.Type(it)
}

func readSpecimen(t testing.TB, name, ext string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("../testdata/specimens", name+"."+ext))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
