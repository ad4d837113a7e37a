package wire

import (
	"testing"

	"github.com/rpckit/rpckit/internal/benchpair"
)

// BenchmarkDispatch measures what choosing the protocol by a branch on p
// costs: reading 1000 i32 values through Protocol.ConsumeI32 (base)
// against static calls of the binary and compact readers, as concrete
// reader types would make them (ours); x is the method's time over the
// static calls'.
func BenchmarkDispatch(b *testing.B) {
	for _, p := range []Protocol{Binary, Compact} {
		var data []byte
		for i := range int32(1000) {
			data = p.AppendI32(data, i*7919)
		}
		method := func() {
			for off := 0; off < len(data); {
				_, off, _ = p.ConsumeI32(data, off)
			}
		}
		static := func() {
			for off := 0; off < len(data); {
				_, off, _ = binI32(data, off)
			}
		}
		if p == Compact {
			static = func() {
				for off := 0; off < len(data); {
					_, off, _ = cmpI32(data, off)
				}
			}
		}
		b.Run(p.String(), func(b *testing.B) { benchpair.Compare(b, method, static) })
	}
}
