package transcode

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/schema"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
)

// mapKinds are the value kinds of mapKindsDescriptor's maps, as .proto
// names them, each the value of a map with string keys and, where it may
// be one, the key of a map with string values.
var mapKinds = []struct {
	name string
	key  bool
}{
	{"int32", true}, {"int64", true}, {"uint32", true}, {"uint64", true}, {"sint32", true}, {"sint64", true},
	{"fixed32", true}, {"fixed64", true}, {"sfixed32", true}, {"sfixed64", true}, {"bool", true}, {"string", true},
	{"float", false}, {"double", false}, {"bytes", false}, {"Kind", false}, {"Leaf", false},
}

// mapKindsDescriptor is a message with a map from strings to each kind of
// mapKinds (fields 1, 2, ...), and a map from each kind that may be a key
// to strings (fields 101, 102, ...).
func mapKindsDescriptor(t *testing.T) protoreflect.MessageDescriptor {
	t.Helper()
	var src strings.Builder
	src.WriteString(`syntax = "proto3";
package mapkinds;
enum Kind { KIND_ZERO = 0; KIND_ONE = 1; KIND_MINUS = -2; }
message Leaf { sint64 n = 1; }
message M {
`)
	for i, k := range mapKinds { // in number order, as the records come
		fmt.Fprintf(&src, "  map<string, %s> to%s = %d;\n", k.name, strings.ToLower(k.name), i+1)
	}
	for i, k := range mapKinds {
		if k.key {
			fmt.Fprintf(&src, "  map<%s, string> from%s = %d;\n", k.name, k.name, i+101)
		}
	}
	src.WriteString("}\n")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "mapkinds.proto"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	files, err := schema.CompileFiles(context.Background(), schema.CompileOptions{Files: []string{"mapkinds.proto"}, ImportPaths: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	d, err := files.FindDescriptorByName("mapkinds.M")
	if err != nil {
		t.Fatal(err)
	}
	return d.(protoreflect.MessageDescriptor)
}

// randomMapValue returns a value of kind k for a map of md, drawn from
// each kind's edges and a few values between.
func randomMapValue(r *rand.Rand, k protoreflect.Kind, leaf protoreflect.MessageDescriptor) protoreflect.Value {
	i64 := []int64{0, 1, -1, 127, 128, -128, 16383, 16384, math.MaxInt32, math.MinInt32, math.MaxInt64, math.MinInt64, 987654321}
	u64 := []uint64{0, 1, 127, 128, 16384, math.MaxUint32, math.MaxUint64, 1 << 63, 123456789012}
	f64 := []float64{0, math.Copysign(0, -1), 1, -1.5, 0.1, 47.3869, 8.521700000000001, 1e21, 1e-7, math.MaxFloat64, math.SmallestNonzeroFloat64, math.Inf(1), math.Inf(-1), math.NaN()}
	strs := []string{"", "a", "counter_a", "counter_b", "é\"\\\n", strings.Repeat("long ", 30)}
	switch k {
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return protoreflect.ValueOfInt32(int32(i64[r.IntN(len(i64))]))
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return protoreflect.ValueOfInt64(i64[r.IntN(len(i64))])
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return protoreflect.ValueOfUint32(uint32(u64[r.IntN(len(u64))]))
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return protoreflect.ValueOfUint64(u64[r.IntN(len(u64))])
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(r.IntN(2) == 1)
	case protoreflect.FloatKind:
		return protoreflect.ValueOfFloat32(float32(f64[r.IntN(len(f64))]))
	case protoreflect.DoubleKind:
		return protoreflect.ValueOfFloat64(f64[r.IntN(len(f64))])
	case protoreflect.StringKind:
		return protoreflect.ValueOfString(strs[r.IntN(len(strs))])
	case protoreflect.BytesKind:
		return protoreflect.ValueOfBytes([]byte(strs[r.IntN(len(strs))]))
	case protoreflect.EnumKind:
		return protoreflect.ValueOfEnum(protoreflect.EnumNumber([]int32{0, 1, -2, 7}[r.IntN(4)]))
	}
	m := dynamicpb.NewMessage(leaf)
	m.Set(leaf.Fields().Get(0), protoreflect.ValueOfInt64(i64[r.IntN(len(i64))]))
	return protoreflect.ValueOfMessage(m)
}

// TestMapKinds holds maps of every key and value kind to protojson: random
// entries as proto.Marshal writes them, then entries written other ways a
// parser must take too (value before key, key or value missing, a value
// varint longer than it needs, an entry repeated with its key).
func TestMapKinds(t *testing.T) {
	md := mapKindsDescriptor(t)
	leaf := md.ParentFile().Messages().ByName("Leaf")
	r := rand.New(rand.NewPCG(21, 22))
	for i := range 300 {
		// the fields one at a time, so that they come in number order
		// (dynamicpb writes them in an order of its own) and the direct
		// path takes the message
		var wire []byte
		fields := md.Fields()
		for j := range fields.Len() {
			m := dynamicpb.NewMessage(md)
			fd := fields.Get(j)
			mp := m.Mutable(fd).Map()
			for range r.IntN(4) {
				k := randomMapValue(r, fd.MapKey().Kind(), leaf).MapKey()
				mp.Set(k, randomMapValue(r, fd.MapValue().Kind(), leaf))
			}
			b, err := proto.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			wire = append(wire, b...)
			if r.IntN(8) == 0 {
				wire = appendOddEntries(r, wire, fd)
			}
		}
		for _, o := range optionSets() {
			checkAgainstOracle(t, fmt.Sprintf("message %d %s", i, optString(o)), md, wire, o)
		}
	}
}

// appendOddEntries appends to wire entries of the map fd written other
// than proto.Marshal writes them.
func appendOddEntries(r *rand.Rand, wire []byte, fd protoreflect.FieldDescriptor) []byte {
	for range 1 + r.IntN(3) {
		key, val := oddRecord(1, fd.MapKey().Kind()), oddRecord(2, fd.MapValue().Kind())
		var entry []byte
		switch r.IntN(4) {
		case 0:
			entry = append(append(entry, val...), key...)
		case 1:
			entry = key
		case 2:
			entry = val
		default:
			entry = append(append(entry, key...), val...)
		}
		for range 1 + r.IntN(2) {
			wire = protowire.AppendBytes(protowire.AppendTag(wire, fd.Number(), protowire.BytesType), entry)
		}
	}
	return wire
}

// oddRecord is a record of field num of kind k written other than
// proto.Marshal writes it, or longer than most: a varint 1 in three bytes,
// fixed bits, a message with one field, a string of 130 bytes (a two-byte
// length).
func oddRecord(num protowire.Number, k protoreflect.Kind) []byte {
	wt := dynamic.WireTypeOf(k)
	b := protowire.AppendTag(nil, num, wt)
	switch {
	case wt == protowire.VarintType:
		return append(b, 0x81, 0x80, 0x00)
	case wt == protowire.Fixed32Type:
		return protowire.AppendFixed32(b, 0x3f800000)
	case wt == protowire.Fixed64Type:
		return protowire.AppendFixed64(b, 0x3ff0000000000000)
	case k == protoreflect.MessageKind:
		return protowire.AppendBytes(b, []byte{0x08, 0x03})
	}
	return protowire.AppendString(b, strings.Repeat("v", 130))
}
