package conformance

import (
	"bytes"
	"math"
	"testing"

	"github.com/rpckit/rpckit/dynamic"
	fixturev1 "github.com/rpckit/rpckit/internal/gen/rpckit/fixture/v1"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// Record builders: a varint, fixed64, bytes or group record of field n.
func vr(n protowire.Number, v uint64) []byte {
	return protowire.AppendVarint(protowire.AppendTag(nil, n, protowire.VarintType), v)
}

// rawVarint is a varint record whose value bytes are given as they are
// (overlong or truncated encodings).
func rawVarint(n protowire.Number, raw ...byte) []byte {
	return append(protowire.AppendTag(nil, n, protowire.VarintType), raw...)
}

func f64(n protowire.Number, v uint64) []byte {
	return protowire.AppendFixed64(protowire.AppendTag(nil, n, protowire.Fixed64Type), v)
}

func f32(n protowire.Number, v uint32) []byte {
	return protowire.AppendFixed32(protowire.AppendTag(nil, n, protowire.Fixed32Type), v)
}

func by(n protowire.Number, parts ...[]byte) []byte {
	return protowire.AppendBytes(protowire.AppendTag(nil, n, protowire.BytesType), cat(parts...))
}

func str(n protowire.Number, s string) []byte { return by(n, []byte(s)) }

func grp(n protowire.Number, parts ...[]byte) []byte {
	b := append(protowire.AppendTag(nil, n, protowire.StartGroupType), cat(parts...)...)
	return protowire.AppendTag(b, n, protowire.EndGroupType)
}

func varints(vs ...uint64) []byte {
	var b []byte
	for _, v := range vs {
		b = protowire.AppendVarint(b, v)
	}
	return b
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

var (
	richType   = dynamic.TypeOf((&fixturev1.Rich{}).ProtoReflect().Descriptor())
	legacyType = dynamic.TypeOf((&fixturev1.Legacy{}).ProtoReflect().Descriptor())
)

type canonicalCase struct {
	name     string
	legacy   bool
	in, want []byte
}

var canonicalCases = []canonicalCase{
	{"overlong varint", false, rawVarint(1, 0x81, 0x80, 0x00), vr(1, 1)},
	{"int32 from 5-byte varint sign-extended", false, rawVarint(1, 0xff, 0xff, 0xff, 0xff, 0x0f), vr(1, math.MaxUint64)},
	{"uint32 truncated", false, vr(3, 1<<32|7), vr(3, 7)},
	{"sint32 truncated", false, vr(5, 1<<32|3), vr(5, 3)},
	{"bool normalized", false, vr(13, 2), vr(13, 1)},
	{"last scalar wins", false, cat(vr(1, 1), vr(1, 2)), vr(1, 2)},
	{"proto3 zero dropped", false, cat(vr(1, 5), vr(1, 0), str(14, "")), nil},
	{"negative zero kept", false, f64(12, 1<<63), f64(12, 1<<63)},
	{"proto3 optional zero kept", false, vr(19, 0), vr(19, 0)},
	{"number order", false, cat(vr(2, 2), str(14, "s"), vr(1, 1)), cat(vr(1, 1), vr(2, 2), str(14, "s"))},
	{"unknown fields last in order", false, cat(vr(999, 1), vr(1, 1), str(998, "x")), cat(vr(1, 1), vr(999, 1), str(998, "x"))},
	{"wrong wire type is unknown", false, cat(f32(1, 9), vr(2, 1)), cat(vr(2, 1), f32(1, 9))},
	{"unpacked into packed field", false, cat(vr(31, 1), by(31, varints(2, 3)), vr(31, 4)), by(31, varints(1, 2, 3, 4))},
	{"packed into unpacked field", false, by(51, varints(1, 2)), cat(vr(51, 1), vr(51, 2))},
	{"packed fixed32 split", false, by(53, []byte{1, 0, 0, 0, 2, 0, 0, 0}), cat(f32(53, 1), f32(53, 2))},
	{"oneof last member wins", false, cat(vr(81, 0), str(82, "x")), str(82, "x")},
	{"oneof default member kept", false, vr(81, 0), vr(81, 0)},
	{"oneof message merged", false, cat(by(83, str(1, "a")), by(83, vr(2, 3))), by(83, str(1, "a"), vr(2, 3))},
	{"oneof message replaced", false, cat(by(83, str(1, "a")), vr(81, 1), by(83, vr(2, 3))), by(83, vr(2, 3))},
	{"message merge", false, cat(by(17, by(3, varints(1)), vr(2, 5)), by(17, vr(3, 2), str(1, "n"))),
		by(17, str(1, "n"), vr(2, 5), by(3, varints(1, 2)))},
	{"repeated messages kept apart", false, cat(by(46, vr(2, 1)), by(46, vr(2, 2))), cat(by(46, vr(2, 1)), by(46, vr(2, 2)))},
	{"map last entry of a key wins", false,
		cat(by(72, str(1, "k"), str(2, "a")), by(72, str(1, "j"), str(2, "b")), by(72, str(2, "c"), str(1, "k"))),
		cat(by(72, str(1, "k"), str(2, "c")), by(72, str(1, "j"), str(2, "b")))},
	{"map entry defaults written", false, by(61, str(2, "v")), by(61, vr(1, 0), str(2, "v"))},
	{"map message value", false, by(73, str(1, "k")), by(73, str(1, "k"), by(2))},
	{"proto2 zero kept", true, vr(1, 0), vr(1, 0)},
	{"closed enum value outside the enum", true, cat(vr(3, 1), vr(1, 1), vr(3, 7)), cat(vr(1, 1), vr(3, 7))},
	{"proto2 packed and unpacked", true, cat(by(7, varints(1, 2)), vr(8, 3), vr(8, 4)), cat(vr(7, 1), vr(7, 2), by(8, varints(3, 4)))},
	{"group merge", true, cat(grp(10, vr(11, 1), grp(13, vr(14, 1))), grp(10, str(12, "n"), grp(13, vr(14, 2)))),
		grp(10, vr(11, 1), str(12, "n"), grp(13, vr(14, 2)))},
	{"repeated groups", true, cat(grp(20, str(21, "a")), grp(20, str(21, "b"))), cat(grp(20, str(21, "a")), grp(20, str(21, "b")))},
	{"extension kept as unknown", true, cat(vr(100, 5), vr(1, 1)), cat(vr(1, 1), vr(100, 5))},
}

func TestCanonical(t *testing.T) {
	for _, c := range canonicalCases {
		t.Run(c.name, func(t *testing.T) {
			typ, newMsg := caseType(c.legacy)
			got, err := Canonical(nil, typ, c.in)
			if err != nil {
				t.Fatalf("Canonical: %v", err)
			}
			if !bytes.Equal(got, c.want) {
				t.Errorf("Canonical(%x)\n got %x\nwant %x", c.in, got, c.want)
			}
			// The expectation itself must mean what protobuf-go reads.
			in, want := newMsg(), newMsg()
			if err := proto.Unmarshal(c.in, in); err != nil {
				t.Fatalf("proto.Unmarshal(in): %v", err)
			}
			if err := proto.Unmarshal(c.want, want); err != nil {
				t.Fatalf("proto.Unmarshal(want): %v", err)
			}
			if !proto.Equal(in, want) {
				t.Errorf("want %v is not what protobuf-go reads from the input: %v", want, in)
			}
		})
	}
}

func TestCanonicalMalformed(t *testing.T) {
	for _, in := range [][]byte{
		{0x08},                // varint missing
		{0x0a, 0x05, 'a'},     // length past the end
		{0x0b},                // group start without end
		append(grp(10), 0x80), // truncated tag
		by(30, []byte{0x0b}),  // group in a sub-message never ends
	} {
		if _, err := Canonical(nil, legacyType, in); err == nil {
			t.Errorf("Canonical(%x): no error", in)
		}
	}
}

func caseType(legacy bool) (*dynamic.Type, func() proto.Message) {
	if legacy {
		return legacyType, func() proto.Message { return new(fixturev1.Legacy) }
	}
	return richType, func() proto.Message { return new(fixturev1.Rich) }
}

// FuzzCanonical checks Canonical against protobuf-go: on any input both
// accept, the canonical bytes read back as the same message, and are
// their own canonical form.
func FuzzCanonical(f *testing.F) {
	for _, c := range canonicalCases {
		f.Add(c.in, c.legacy)
	}
	rich, _ := proto.Marshal(&fixturev1.Rich{FInt32: -3, FString: "é", RInt32: []int32{1, -1},
		MString: map[string]string{"a": "b"}, Choice: &fixturev1.Rich_CLeaf{CLeaf: &fixturev1.Leaf{Name: "x", Values: []int32{7}}}})
	f.Add(rich, false)
	f.Fuzz(func(t *testing.T, in []byte, legacy bool) {
		typ, newMsg := caseType(legacy)
		want := newMsg()
		if proto.Unmarshal(in, want) != nil || dynamic.Validate(typ, in) != nil {
			return
		}
		c, err := Canonical(nil, typ, in)
		if err != nil {
			t.Fatalf("Canonical(%x): %v", in, err)
		}
		got := newMsg()
		if err := proto.Unmarshal(c, got); err != nil {
			t.Fatalf("canonical bytes %x unreadable: %v", c, err)
		}
		if !proto.Equal(got, want) {
			t.Fatalf("Canonical(%x) = %x\nreads as %v\nwant     %v", in, c, got, want)
		}
		if again, _ := Canonical(nil, typ, c); !bytes.Equal(again, c) {
			t.Fatalf("Canonical not idempotent on %x:\n%x\n%x", in, c, again)
		}
	})
}
