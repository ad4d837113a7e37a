package thriftfixture

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/idl"
	"github.com/rpckit/rpckit/thrift/wire"
)

// benchIDL is bench.thrift, parsed once for every test of a process, and the
// Types compiled from it.
var benchIDL struct {
	once  sync.Once
	file  *idl.File
	err   error
	cache dynamic.Cache
}

// BenchType returns the compiled Type of the named struct of
// thrift/testdata/bench.thrift.
func BenchType(t testing.TB, name string) *dynamic.Type {
	t.Helper()
	benchIDL.once.Do(func() {
		dir, err := TestdataDir()
		if err == nil {
			benchIDL.file, err = idl.ParseFile("bench.thrift", idl.Options{FS: os.DirFS(dir)})
		}
		benchIDL.err = err
	})
	if benchIDL.err != nil {
		t.Fatal(benchIDL.err)
	}
	it := benchIDL.file.Type(name)
	if it == nil {
		t.Fatalf("no type %s in bench.thrift", name)
	}
	return benchIDL.cache.Type(it)
}

// ReadSpecimen returns the bytes of a specimen in thrift/testdata/specimens
// by its name and its protocol's extension (medium, binary).
func ReadSpecimen(t testing.TB, name, ext string) []byte {
	t.Helper()
	dir, err := TestdataDir()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "specimens", name+"."+ext))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// EachSpecimen runs fn for every specimen in both protocols, each as a
// sub-benchmark named after the specimen's file (medium.binary).
func EachSpecimen(b *testing.B, fn func(b *testing.B, s Specimen, p wire.Protocol, data []byte)) {
	for _, s := range Specimens {
		for _, pr := range Protocols {
			data := ReadSpecimen(b, s.Name, pr.Ext)
			b.Run(s.Name+"."+pr.Ext, func(b *testing.B) { fn(b, s, pr.Proto, data) })
		}
	}
}

// TestdataDir finds thrift/testdata from the working directory, which go
// test sets to the package's, inside the module.
func TestdataDir() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "thrift", "testdata"), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("thriftfixture: no go.mod above the working directory")
		}
		dir = parent
	}
}

// Generated is the generated code's side of a benchmark: a memory
// transport to read from and write to, and a protocol over it.
type Generated struct {
	tb   testing.TB
	in   []byte
	buf  *thrift.TMemoryBuffer
	prot thrift.TProtocol
}

// NewGenerated returns the generated code's side of a benchmark reading in,
// in protocol p.
func NewGenerated(tb testing.TB, p wire.Protocol, in []byte) *Generated {
	buf := thrift.NewTMemoryBufferLen(2 * len(in))
	return &Generated{tb, in, buf, Protocol(p, buf)}
}

// Read reads the input into a new value of the named struct.
func (g *Generated) Read(name string) thrift.TStruct {
	g.buf.Reset()
	g.buf.Write(g.in)
	s := New(name)
	if err := s.Read(context.Background(), g.prot); err != nil {
		g.tb.Fatal(err)
	}
	return s
}

// Write writes s, leaving its bytes in the transport.
func (g *Generated) Write(s thrift.TStruct) {
	g.buf.Reset()
	if err := s.Write(context.Background(), g.prot); err != nil {
		g.tb.Fatal(err)
	}
	if err := g.prot.Flush(context.Background()); err != nil {
		g.tb.Fatal(err)
	}
}
