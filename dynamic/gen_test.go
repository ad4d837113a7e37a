package dynamic_test

import (
	"math"
	"math/rand/v2"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/wire"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
)

// gen builds random messages over protoreflect, deterministic per seed.
type gen struct {
	r        *rand.Rand
	maxDepth int
}

func newGen(seed uint64) *gen {
	return &gen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), maxDepth: 3}
}

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

// message returns a random message of md.
func (g *gen) message(md protoreflect.MessageDescriptor, depth int) *dynamicpb.Message {
	m := dynamicpb.NewMessage(md)
	fds := md.Fields()
	for i := range fds.Len() {
		fd := fds.Get(i)
		if !g.chance(0.45) || (fd.Message() != nil && depth >= g.maxDepth) {
			continue
		}
		switch {
		case fd.IsMap():
			g.fillMap(m.Mutable(fd).Map(), fd, depth)
		case fd.IsList():
			l := m.Mutable(fd).List()
			for range g.r.IntN(5) {
				l.Append(g.value(fd, depth, l.NewElement))
			}
		case fd.Message() != nil:
			m.Set(fd, protoreflect.ValueOfMessage(g.message(fd.Message(), depth+1)))
		default:
			m.Set(fd, g.scalar(fd))
		}
	}
	return m
}

func (g *gen) fillMap(mp protoreflect.Map, fd protoreflect.FieldDescriptor, depth int) {
	for range g.r.IntN(4) {
		k := g.scalar(fd.MapKey()).MapKey()
		mp.Set(k, g.value(fd.MapValue(), depth, mp.NewValue))
	}
}

func (g *gen) value(fd protoreflect.FieldDescriptor, depth int, _ func() protoreflect.Value) protoreflect.Value {
	if fd.Message() != nil {
		return protoreflect.ValueOfMessage(g.message(fd.Message(), depth+1))
	}
	return g.scalar(fd)
}

var edgeInts = []int64{0, 1, -1, 127, 128, -128, math.MaxInt32, math.MinInt32, math.MaxInt64, math.MinInt64}

func (g *gen) int() int64 {
	if g.chance(0.3) {
		return edgeInts[g.r.IntN(len(edgeInts))]
	}
	return g.r.Int64N(2000) - 1000
}

var texts = []string{"", "a", "hello", "grüße", "東京", "пример 😀", "with \"quotes\" and \\"}

func (g *gen) scalar(fd protoreflect.FieldDescriptor) protoreflect.Value {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(g.chance(0.5))
	case protoreflect.EnumKind:
		vals := fd.Enum().Values()
		return protoreflect.ValueOfEnum(vals.Get(g.r.IntN(vals.Len())).Number())
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return protoreflect.ValueOfInt32(int32(g.int()))
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return protoreflect.ValueOfInt64(g.int())
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return protoreflect.ValueOfUint32(uint32(g.int()))
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return protoreflect.ValueOfUint64(uint64(g.int()))
	case protoreflect.FloatKind:
		return protoreflect.ValueOfFloat32(float32(g.int()) / 8)
	case protoreflect.DoubleKind:
		return protoreflect.ValueOfFloat64(float64(g.int()) / 16)
	case protoreflect.StringKind:
		return protoreflect.ValueOfString(texts[g.r.IntN(len(texts))])
	case protoreflect.BytesKind:
		b := make([]byte, g.r.IntN(6))
		for i := range b {
			b[i] = byte(g.r.IntN(256))
		}
		return protoreflect.ValueOfBytes(b)
	}
	panic("unreachable kind " + fd.Kind().String())
}

// encode marshals a random message of md, then scrambles its encoding:
// sub-messages split in two records, packed runs split or unpacked, map
// entries reordered, unknown fields and decoys, and sometimes a second
// random message appended (a merge).
func (g *gen) encode(md protoreflect.MessageDescriptor) []byte {
	t := dynamic.TypeOf(md)
	b, err := proto.Marshal(g.message(md, 0))
	if err != nil {
		panic(err)
	}
	b = g.scramble(t, b, 0)
	if g.chance(0.3) {
		more, _ := proto.Marshal(g.message(md, 0))
		b = append(b, g.scramble(t, more, 0)...)
	}
	return b
}

func (g *gen) scramble(t *dynamic.Type, b []byte, depth int) []byte {
	var out []byte
	it := wire.NewIter(b)
	for it.Next() {
		r := it.Field()
		if g.chance(0.05) {
			out = g.unknown(out)
		}
		f := t.FieldByNumber(r.Num)
		switch {
		case f == nil:
			out = append(out, r.Raw(b)...)
		case f.Message != nil && r.Type == protowire.BytesType:
			out = g.splitMessage(out, f, g.scramble(f.Message, r.Payload(b), depth+1))
		case f.Packable && r.Type == protowire.BytesType && g.chance(0.4):
			out = g.splitPacked(out, f, r.Payload(b))
		default:
			out = append(out, r.Raw(b)...)
		}
	}
	if g.chance(0.1) {
		out = g.unknown(out)
	}
	return out
}

func (g *gen) splitMessage(out []byte, f *dynamic.Field, payload []byte) []byte {
	cut := 0
	if g.chance(0.4) && len(payload) > 0 {
		it := wire.NewIter(payload)
		for it.Next() && g.chance(0.6) {
			cut = it.Field().End
		}
	}
	if cut > 0 && cut < len(payload) && !f.Map {
		out = wire.AppendLen(out, f.Num, payload[:cut])
		return wire.AppendLen(out, f.Num, payload[cut:])
	}
	return wire.AppendLen(out, f.Num, payload)
}

// splitPacked re-encodes a packed run: the first elements unpacked, the
// rest as a packed run.
func (g *gen) splitPacked(out []byte, f *dynamic.Field, run []byte) []byte {
	off, k := 0, g.r.IntN(3)
	for i := 0; i < k && off < len(run); i++ {
		_, next, err := wire.NextPacked(run, off, len(run), f.WireType)
		if err != nil {
			break
		}
		out = protowire.AppendTag(out, f.Num, f.WireType)
		out = append(out, run[off:next]...)
		off = next
	}
	if off < len(run) {
		out = wire.AppendLen(out, f.Num, run[off:])
	}
	return out
}

// unknown appends a record of a field number no fixture uses.
func (g *gen) unknown(out []byte) []byte {
	num := protowire.Number(900 + g.r.IntN(50))
	switch g.r.IntN(4) {
	case 0:
		out = protowire.AppendTag(out, num, protowire.VarintType)
		return protowire.AppendVarint(out, g.r.Uint64())
	case 1:
		out = protowire.AppendTag(out, num, protowire.Fixed32Type)
		return protowire.AppendFixed32(out, g.r.Uint32())
	case 2:
		out = protowire.AppendTag(out, num, protowire.StartGroupType)
		out = protowire.AppendTag(out, 1, protowire.VarintType)
		out = protowire.AppendVarint(out, 7)
		return protowire.AppendTag(out, num, protowire.EndGroupType)
	}
	return wire.AppendLen(out, num, []byte("unknown"))
}
