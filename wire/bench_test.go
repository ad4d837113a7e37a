package wire_test

import (
	"testing"

	"github.com/rpckit/rpckit/internal/fixture"
	"github.com/rpckit/rpckit/wire"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

func BenchmarkIter(b *testing.B) {
	for _, m := range []proto.Message{fixture.Small(), fixture.Medium()} {
		data, _ := proto.Marshal(m)
		b.Run(string(m.ProtoReflect().Descriptor().Name()), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				it := wire.NewIter(data)
				for it.Next() {
				}
			}
		})
	}
}

func BenchmarkProtowire(b *testing.B) {
	for _, m := range []proto.Message{fixture.Small(), fixture.Medium()} {
		data, _ := proto.Marshal(m)
		b.Run(string(m.ProtoReflect().Descriptor().Name()), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				for p := data; len(p) > 0; {
					_, _, n := protowire.ConsumeField(p)
					p = p[n:]
				}
			}
		})
	}
}
