package transcode

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
)

// mapKinds are the value kinds of mapKindsDescriptor's maps, each the
// value of a map with string keys and the key of a map with string values
// where it may be one.
var mapKinds = []descriptorpb.FieldDescriptorProto_Type{
	descriptorpb.FieldDescriptorProto_TYPE_INT32, descriptorpb.FieldDescriptorProto_TYPE_INT64,
	descriptorpb.FieldDescriptorProto_TYPE_UINT32, descriptorpb.FieldDescriptorProto_TYPE_UINT64,
	descriptorpb.FieldDescriptorProto_TYPE_SINT32, descriptorpb.FieldDescriptorProto_TYPE_SINT64,
	descriptorpb.FieldDescriptorProto_TYPE_FIXED32, descriptorpb.FieldDescriptorProto_TYPE_FIXED64,
	descriptorpb.FieldDescriptorProto_TYPE_SFIXED32, descriptorpb.FieldDescriptorProto_TYPE_SFIXED64,
	descriptorpb.FieldDescriptorProto_TYPE_BOOL, descriptorpb.FieldDescriptorProto_TYPE_STRING,
	descriptorpb.FieldDescriptorProto_TYPE_FLOAT, descriptorpb.FieldDescriptorProto_TYPE_DOUBLE,
	descriptorpb.FieldDescriptorProto_TYPE_BYTES, descriptorpb.FieldDescriptorProto_TYPE_ENUM,
	descriptorpb.FieldDescriptorProto_TYPE_MESSAGE,
}

// mapKindsDescriptor is a message with a map from strings to each kind of
// mapKinds (fields 1, 2, ...), and a map from each kind that may be a key
// to strings (fields 101, 102, ...).
func mapKindsDescriptor(t *testing.T) protoreflect.MessageDescriptor {
	t.Helper()
	opt := descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL
	rep := descriptorpb.FieldDescriptorProto_LABEL_REPEATED
	str := descriptorpb.FieldDescriptorProto_TYPE_STRING
	field := func(name string, num int32, label descriptorpb.FieldDescriptorProto_Label, typ descriptorpb.FieldDescriptorProto_Type) *descriptorpb.FieldDescriptorProto {
		f := &descriptorpb.FieldDescriptorProto{Name: proto.String(name), Number: proto.Int32(num), Label: &label, Type: &typ}
		switch typ {
		case descriptorpb.FieldDescriptorProto_TYPE_ENUM:
			f.TypeName = proto.String(".mapkinds.Kind")
		case descriptorpb.FieldDescriptorProto_TYPE_MESSAGE:
			f.TypeName = proto.String(".mapkinds.Leaf")
		}
		return f
	}
	m := &descriptorpb.DescriptorProto{Name: proto.String("M")}
	addMap := func(name string, num int32, key, val descriptorpb.FieldDescriptorProto_Type) {
		entry := strings.ToUpper(name[:1]) + name[1:] + "Entry" // names without underscores
		m.NestedType = append(m.NestedType, &descriptorpb.DescriptorProto{
			Name:    proto.String(entry),
			Field:   []*descriptorpb.FieldDescriptorProto{field("key", 1, opt, key), field("value", 2, opt, val)},
			Options: &descriptorpb.MessageOptions{MapEntry: proto.Bool(true)},
		})
		f := field(name, num, rep, descriptorpb.FieldDescriptorProto_TYPE_MESSAGE)
		f.TypeName = proto.String(".mapkinds.M." + entry)
		m.Field = append(m.Field, f)
	}
	name := func(k descriptorpb.FieldDescriptorProto_Type) string {
		return strings.ToLower(strings.TrimPrefix(k.String(), "TYPE_"))
	}
	for i, k := range mapKinds { // in number order, as the records come
		addMap("to"+name(k), int32(i+1), str, k)
	}
	for i, k := range mapKinds {
		switch k {
		case descriptorpb.FieldDescriptorProto_TYPE_FLOAT, descriptorpb.FieldDescriptorProto_TYPE_DOUBLE,
			descriptorpb.FieldDescriptorProto_TYPE_BYTES, descriptorpb.FieldDescriptorProto_TYPE_ENUM,
			descriptorpb.FieldDescriptorProto_TYPE_MESSAGE:
		default:
			addMap("from"+name(k), int32(i+101), k, str)
		}
	}
	fd := &descriptorpb.FileDescriptorProto{
		Name: proto.String("mapkinds.proto"), Package: proto.String("mapkinds"), Syntax: proto.String("proto3"),
		EnumType: []*descriptorpb.EnumDescriptorProto{{
			Name: proto.String("Kind"),
			Value: []*descriptorpb.EnumValueDescriptorProto{
				{Name: proto.String("KIND_ZERO"), Number: proto.Int32(0)},
				{Name: proto.String("KIND_ONE"), Number: proto.Int32(1)},
				{Name: proto.String("KIND_MINUS"), Number: proto.Int32(-2)},
			},
		}},
		MessageType: []*descriptorpb.DescriptorProto{m, {
			Name:  proto.String("Leaf"),
			Field: []*descriptorpb.FieldDescriptorProto{field("n", 1, opt, descriptorpb.FieldDescriptorProto_TYPE_SINT64)},
		}},
	}
	f, err := protodesc.NewFile(fd, nil)
	if err != nil {
		t.Fatal(err)
	}
	return f.Messages().ByName("M")
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
	wt := wireTypeOf(k)
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
