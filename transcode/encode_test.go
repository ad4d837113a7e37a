package transcode

import (
	"math"
	"testing"

	"github.com/rpckit/rpckit/internal/fixture"
	fixturev1 "github.com/rpckit/rpckit/internal/gen/rpckit/fixture/v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

func mustAny(t testing.TB, m proto.Message) *anypb.Any {
	a, err := anypb.New(m)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// messageCases are generated messages covering each feature of the JSON
// mapping; each is printed with every option set and held against
// protojson.
func messageCases(t testing.TB) map[string]proto.Message {
	negZero := math.Copysign(0, -1)
	return map[string]proto.Message{
		"small":  fixture.Small(),
		"medium": fixture.Medium(),
		"empty":  &fixturev1.Rich{},
		"scalars": &fixturev1.Rich{
			FInt32: -5, FInt64: math.MinInt64, FUint32: math.MaxUint32, FUint64: math.MaxUint64,
			FSint32: math.MinInt32, FSint64: math.MaxInt64, FFixed32: 7, FFixed64: 1 << 63,
			FSfixed32: -1, FSfixed64: -1 << 40, FFloat: 1.5e-7, FDouble: 1e21, FBool: true,
			FString: "\"\\\n\t\x00\x1f\x7f<>&\u2028😀é", FBytes: []byte{0, 0xff, 0xfe}, FKind: fixturev1.Kind_KIND_NEGATIVE,
		},
		"floats": &fixturev1.Rich{
			FFloat: float32(math.Inf(-1)), FDouble: math.NaN(),
			RFloat:  []float32{0, float32(negZero), math.MaxFloat32, math.SmallestNonzeroFloat32, 1e20, 1e21, 0.1, 16777216},
			RDouble: []double{negZero, math.Inf(1), 1e-6, 1e-7, 123456789e-15, 1e100, 5e-324, 0.1 + 0.2},
		},
		"negzero":      &fixturev1.Rich{FDouble: negZero, FFloat: float32(negZero)},
		"optional":     &fixturev1.Rich{OInt32: proto.Int32(0), OString: proto.String(""), OKind: fixturev1.Kind_KIND_UNSPECIFIED.Enum(), ODouble: proto.Float64(0)},
		"unknown enum": &fixturev1.Rich{FKind: 17, RKind: []fixturev1.Kind{1, 99, -5}, UKind: []fixturev1.Kind{3, 1000}, MKind: map[string]fixturev1.Kind{"x": 42, "y": 2}},
		"lists": &fixturev1.Rich{
			RInt32: []int32{1, -1, math.MaxInt32}, RInt64: []int64{math.MinInt64, 0}, RUint64: []uint64{math.MaxUint64},
			RSint32: []int32{-3}, RSint64: []int64{-4}, RFixed64: []uint64{5}, RSfixed64: []int64{-6},
			RBool: []bool{true, false}, RString: []string{"", "a", "ü"}, RBytes: [][]byte{{}, {1}},
			RLeaf: []*fixturev1.Leaf{{}, {Name: "n", Values: []int32{1, 2}}}, RKind: []fixturev1.Kind{0, 1},
			UInt32: []int32{-1, 2}, USint64: []int64{-9}, UFixed32: []uint32{1}, UDouble: []float64{2.5}, UBool: []bool{true}, UKind: []fixturev1.Kind{2},
		},
		"maps": &fixturev1.Rich{
			MInt32: map[int32]string{-1: "a", 5: "b", math.MinInt32: "min"}, MInt64: map[int64]string{math.MaxInt64: "max", -10: "m"},
			MUint32: map[uint32]string{math.MaxUint32: "x", 0: ""}, MUint64: map[uint64]string{math.MaxUint64: "y", 2: "z"},
			MSint32: map[int32]string{-7: "s"}, MSint64: map[int64]string{-8: "t"}, MFixed32: map[uint32]string{9: "u"},
			MFixed64: map[uint64]string{10: "v"}, MSfixed32: map[int32]string{-11: "w"}, MSfixed64: map[int64]string{-12: "x"},
			MBool: map[bool]string{true: "t", false: "f"}, MString: map[string]string{"b": "1", "a": "2", "é": "3", "": "4", "\n": "5"},
			MLeaf: map[string]*fixturev1.Leaf{"k": {Id: 3}, "e": {}}, MKind: map[string]fixturev1.Kind{"a": 1, "b": 0},
			MBytes: map[int64][]byte{1: {1, 2, 3}, 2: {}}, MDouble: map[string]float64{"nan": math.NaN(), "inf": math.Inf(-1), "z": negZero},
		},
		"oneof leaf":   &fixturev1.Rich{Choice: &fixturev1.Rich_CLeaf{CLeaf: &fixturev1.Leaf{}}, Other: &fixturev1.Rich_DDouble{DDouble: 0}},
		"oneof zero":   &fixturev1.Rich{Choice: &fixturev1.Rich_CInt32{CInt32: 0}, Other: &fixturev1.Rich_DRich{DRich: &fixturev1.Rich{FInt32: 1}}},
		"oneof kind":   &fixturev1.Rich{Choice: &fixturev1.Rich_CKind{CKind: 0}},
		"oneof bytes":  &fixturev1.Rich{Choice: &fixturev1.Rich_CBytes{CBytes: nil}},
		"nested":       &fixturev1.Rich{Child: &fixturev1.Rich{Child: &fixturev1.Rich{FLeaf: &fixturev1.Leaf{Next: &fixturev1.Leaf{Tags: map[string]int32{"a": 1}, Pick: &fixturev1.Leaf_B{B: 5}}}}}},
		"legacy":       legacyFull(),
		"legacy empty": &fixturev1.Legacy{},
		"legacy defaults": &fixturev1.Legacy{
			A: proto.Int32(42), S: proto.String("hello"), E: fixturev1.Closed_CLOSED_TWO.Enum(), D: proto.Float64(1.5),
			Bs: []byte("raw"), Flag: proto.Bool(true),
		},
		"known":       knownFull(t),
		"known empty": &fixturev1.Known{},
		"known zero": &fixturev1.Known{
			Timestamp: &timestamppb.Timestamp{}, Duration: &durationpb.Duration{}, FieldMask: &fieldmaskpb.FieldMask{},
			Struct: &structpb.Struct{}, ListValue: &structpb.ListValue{}, BoolValue: &wrapperspb.BoolValue{},
			Int32Value: &wrapperspb.Int32Value{}, Int64Value: &wrapperspb.Int64Value{}, Uint32Value: &wrapperspb.UInt32Value{},
			Uint64Value: &wrapperspb.UInt64Value{}, FloatValue: &wrapperspb.FloatValue{}, DoubleValue: &wrapperspb.DoubleValue{},
			StringValue: &wrapperspb.StringValue{}, BytesValue: &wrapperspb.BytesValue{}, Empty: &emptypb.Empty{}, Any: &anypb.Any{},
			ONullValue: structpb.NullValue_NULL_VALUE.Enum(),
			Pick:       &fixturev1.Known_PNullValue{},
		},
		"timestamps": &fixturev1.Known{RTimestamp: []*timestamppb.Timestamp{
			{Seconds: minTimestampSeconds}, {Seconds: maxTimestampSeconds, Nanos: maxNanos}, {Seconds: -1, Nanos: 1},
			{Nanos: 1000}, {Nanos: 1000000}, {Seconds: 1735689600, Nanos: 120000000},
		}},
		"durations": &fixturev1.Known{RDuration: []*durationpb.Duration{
			{Seconds: maxDurationSeconds}, {Seconds: -maxDurationSeconds}, {Nanos: -500}, {Seconds: -1, Nanos: -999999999},
			{Seconds: 3, Nanos: 1000}, {Nanos: 1},
		}},
		"any wkt": &fixturev1.Known{RAny: []*anypb.Any{
			mustAny(t, timestamppb.New(timestamppb.Now().AsTime().Truncate(1e9))), mustAny(t, durationpb.New(1500)),
			mustAny(t, &emptypb.Empty{}), mustAny(t, structpb.NewStringValue("s")), mustAny(t, wrapperspb.Int64(-3)),
			mustAny(t, &structpb.Struct{Fields: map[string]*structpb.Value{"a": structpb.NewNullValue()}}),
			mustAny(t, mustAny(t, &fixturev1.Leaf{Name: "inner"})), mustAny(t, &fieldmaskpb.FieldMask{Paths: []string{"a.b_c"}}),
			mustAny(t, &structpb.ListValue{}), mustAny(t, &fixturev1.Leaf{}),
		}},
	}
}

type double = float64

func legacyFull() *fixturev1.Legacy {
	m := &fixturev1.Legacy{
		A: proto.Int32(0), S: proto.String(""), E: fixturev1.Closed_CLOSED_ZERO.Enum(), D: proto.Float64(-0.5),
		Bs: []byte{}, Flag: proto.Bool(false), Nums: []int32{1, 2}, PackedNums: []int32{-3, 4},
		Item:  &fixturev1.Legacy_Item{Id: proto.Int32(11), Name: proto.String("item"), Inner: &fixturev1.Legacy_Item_Inner{V: proto.Int64(-14)}},
		Entry: []*fixturev1.Legacy_Entry{{Key: proto.String("k"), Value: proto.Int64(1)}, {}},
		Child: &fixturev1.Legacy{A: proto.Int32(1)}, Children: map[string]*fixturev1.Legacy{"c": {S: proto.String("x")}},
		Pick: &fixturev1.Legacy_PStr{PStr: "p"},
	}
	proto.SetExtension(m, fixturev1.E_ExtInt, int32(100))
	proto.SetExtension(m, fixturev1.E_ExtStr, "ext")
	proto.SetExtension(m, fixturev1.E_ExtNums, []int64{1, -2})
	return m
}

func knownFull(t testing.TB) *fixturev1.Known {
	s, err := structpb.NewStruct(map[string]any{
		"n": nil, "num": -1.5, "s": "str\n", "b": true, "o": map[string]any{"x": []any{1.0, "y", nil, false, map[string]any{}}}, "l": []any{},
	})
	if err != nil {
		t.Fatal(err)
	}
	return &fixturev1.Known{
		Timestamp: &timestamppb.Timestamp{Seconds: 1735689600, Nanos: 123456000}, Duration: &durationpb.Duration{Seconds: -3, Nanos: -500000000},
		FieldMask: &fieldmaskpb.FieldMask{Paths: []string{"foo_bar", "a.b_c.d", "x1"}}, Struct: s, Value: structpb.NewStructValue(s),
		ListValue: &structpb.ListValue{Values: []*structpb.Value{structpb.NewNumberValue(1e21), structpb.NewListValue(&structpb.ListValue{})}},
		NullValue: structpb.NullValue_NULL_VALUE, BoolValue: wrapperspb.Bool(true), Int32Value: wrapperspb.Int32(-1),
		Int64Value: wrapperspb.Int64(math.MinInt64), Uint32Value: wrapperspb.UInt32(math.MaxUint32), Uint64Value: wrapperspb.UInt64(math.MaxUint64),
		FloatValue: wrapperspb.Float(float32(math.NaN())), DoubleValue: wrapperspb.Double(math.Inf(1)), StringValue: wrapperspb.String("ß"),
		BytesValue: wrapperspb.Bytes([]byte("bytes")), Empty: &emptypb.Empty{}, Any: mustAny(t, &fixturev1.Rich{FInt64: 5, RLeaf: []*fixturev1.Leaf{{}}}),
		RNullValue: []structpb.NullValue{0, 0}, RValue: []*structpb.Value{structpb.NewNullValue(), structpb.NewBoolValue(false)},
		MStruct: map[string]*structpb.Struct{"s": s, "e": {}}, MNullValue: map[string]structpb.NullValue{"n": 0},
		MInt64Value: map[int64]*wrapperspb.Int64Value{-1: wrapperspb.Int64(1), 2: {}}, MBytesValue: map[bool]*wrapperspb.BytesValue{true: {}},
		MEmpty: map[string]*emptypb.Empty{"e": {}}, MAny: map[string]*anypb.Any{"a": mustAny(t, &fixturev1.Leaf{Id: 1}), "e": {}},
		Pick: &fixturev1.Known_PValue{PValue: structpb.NewNumberValue(0)},
	}
}

func TestMarshalMatchesProtojson(t *testing.T) {
	for name, m := range messageCases(t) {
		wire, err := proto.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range optionSets() {
			checkAgainstOracle(t, name+" "+optString(o), m.ProtoReflect().Descriptor(), wire, o)
		}
	}
}
