package wire_test

import (
	"testing"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/rpckit/rpckit/internal/benchpair"
	"github.com/rpckit/rpckit/internal/thriftfixture"
	"github.com/rpckit/rpckit/thrift/wire"
)

// BenchmarkSkip times Protocol.Skip over the Medium and Large specimens
// beside the generated code's Read of the same bytes (base-ns/op; the
// Apache library's Read builds the Go value, Skip builds nothing), and
// reports x, Read's time over Skip's.
func BenchmarkSkip(b *testing.B) {
	for _, s := range thriftfixture.Specimens[1:] {
		for _, pr := range thriftfixture.Protocols {
			data := readSpecimen(b, s.Name, pr.Ext)
			b.Run(s.Name+"."+pr.Ext, func(b *testing.B) {
				benchpair.Compare(b, generatedRead(b, s, pr.Proto, data), func() {
					if _, err := pr.Proto.Skip(data, 0, wire.Struct); err != nil {
						b.Fatal(err)
					}
				})
			})
		}
	}
}

// BenchmarkIter is BenchmarkSkip with the walk of the top-level fields by
// Iter (each value skipped).
func BenchmarkIter(b *testing.B) {
	for _, pr := range thriftfixture.Protocols {
		data := readSpecimen(b, "medium", pr.Ext)
		b.Run("medium."+pr.Ext, func(b *testing.B) {
			benchpair.Compare(b, generatedRead(b, thriftfixture.Specimens[1], pr.Proto, data), func() {
				it := wire.NewIter(pr.Proto, data, 0)
				for it.Next() {
				}
				if it.Err() != nil {
					b.Fatal(it.Err())
				}
			})
		})
	}
}

// generatedRead returns a function that reads data with the generated
// code into a fresh value. The memory transport is refilled each time
// (one copy of data, a small part of the read).
func generatedRead(b *testing.B, s thriftfixture.Specimen, p wire.Protocol, data []byte) func() {
	buf := thrift.NewTMemoryBufferLen(len(data))
	prot := thriftfixture.Protocol(p, buf)
	return func() {
		buf.Reset()
		buf.Write(data)
		if err := thriftfixture.New(s.Type).Read(ctx, prot); err != nil {
			b.Fatal(err)
		}
	}
}
