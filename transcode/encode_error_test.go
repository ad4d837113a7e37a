package transcode

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/rpckit/rpckit/dynamic"
	fixturev1 "github.com/rpckit/rpckit/internal/gen/rpckit/fixture/v1"
	"github.com/rpckit/rpckit/wire"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// Wire builders for hand-made inputs.
func tag(n protowire.Number, t protowire.Type) []byte { return protowire.AppendTag(nil, n, t) }
func vint(v uint64) []byte                            { return protowire.AppendVarint(nil, v) }
func lenRec(n protowire.Number, payload ...[]byte) []byte {
	var p []byte
	for _, x := range payload {
		p = append(p, x...)
	}
	return protowire.AppendBytes(tag(n, protowire.BytesType), p)
}
func cat(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}
func varintRec(n protowire.Number, v uint64) []byte {
	return cat(tag(n, protowire.VarintType), vint(v))
}

func mustWire(t *testing.T, m proto.Message) []byte {
	t.Helper()
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestMarshalErrors(t *testing.T) {
	rich := typeOf(&fixturev1.Rich{})
	known := typeOf(&fixturev1.Known{})
	legacy := typeOf(&fixturev1.Legacy{})
	bad := []byte{'a', 0xff, 'b'}
	tests := []struct {
		name string
		typ  *dynamic.Type
		wire []byte
		// offset is the expected error offset (-1: not checked); path and
		// msg are substrings of the path and of the message.
		offset    int
		path, msg string
	}{
		{"truncated varint", rich, []byte{0x08, 0x80}, 1, "", "truncated varint"},
		{"varint overflow", rich, cat([]byte{0x08}, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}), 1, "", "overflow"},
		{"truncated length", rich, []byte{0x72, 0x05, 'a'}, 1, "", "length past the end"},
		{"truncated fixed64", rich, []byte{0x41, 1, 2, 3}, 1, "", "length past the end"},
		{"bad wire type", rich, []byte{0x0f}, 0, "", "bad wire type"},
		{"field number zero", rich, []byte{0x00, 0x01}, 0, "", "bad field number"},
		{"end group", rich, []byte{0x0c}, 0, "", "unexpected end group"},
		{"open group", rich, []byte{0x0b, 0x08, 0x01}, -1, "", "group"},
		{"nested truncated", rich, lenRec(17, []byte{0x0a, 0x09, 'x'}), 4, "fLeaf", "length past the end"},
		{"invalid utf8", rich, lenRec(14, bad), 2, "fString", "invalid UTF-8"},
		{"invalid utf8 replaced", rich, cat(lenRec(14, bad), lenRec(14, []byte("ok"))), 2, "fString", "invalid UTF-8"},
		{"invalid utf8 in list", rich, cat(lenRec(46, lenRec(1, []byte("a"))), lenRec(46, lenRec(1, bad))), -1, "rLeaf[1].name", "invalid UTF-8"},
		{"invalid utf8 in map value msg", rich, lenRec(73, lenRec(1, []byte("k")), lenRec(2, lenRec(1, bad))), -1, `mLeaf["k"].name`, "invalid UTF-8"},
		{"invalid utf8 in map key", rich, lenRec(72, lenRec(1, bad)), -1, "mString", "invalid UTF-8"},
		{"invalid utf8 in map key with value", rich, lenRec(72, lenRec(1, bad), lenRec(2, []byte("v"))), 5, "mString", "invalid UTF-8 in map key"},
		{"invalid utf8 in map value", rich, lenRec(72, lenRec(1, []byte("k")), lenRec(2, bad)), 8, `mString["k"]`, "invalid UTF-8"},
		{"invalid utf8 in sorted map value", rich, cat(lenRec(72, lenRec(1, []byte("z")), lenRec(2, []byte("ok"))), lenRec(72, lenRec(1, []byte("k")), lenRec(2, bad))), 18, `mString["k"]`, "invalid UTF-8"},
		{"invalid utf8 in replaced entry", rich, cat(lenRec(72, lenRec(1, []byte("k")), lenRec(2, bad)), lenRec(72, lenRec(1, []byte("k")))), -1, "mString", "invalid UTF-8"},
		{"invalid utf8 in oneof loser", rich, cat(lenRec(83, lenRec(1, bad)), varintRec(81, 1)), -1, "cLeaf", "invalid UTF-8"},
		{"invalid utf8 proto2", legacy, lenRec(2, bad), 2, "s", "invalid UTF-8"},
		{"packed fixed32 length", rich, lenRec(37, []byte{1, 2, 3, 4, 5}), 7, "rFixed32", "multiple"},
		{"packed truncated varint", rich, lenRec(31, []byte{1, 0x80}), 4, "rInt32", "truncated varint"},
		{"timestamp seconds", known, mustWire(t, &fixturev1.Known{Timestamp: &timestamppb.Timestamp{Seconds: maxTimestampSeconds + 1}}), -1, "timestamp", "seconds out of range"},
		{"timestamp nanos", known, mustWire(t, &fixturev1.Known{Timestamp: &timestamppb.Timestamp{Nanos: -1}}), -1, "timestamp", "nanos out of range"},
		{"duration range", known, mustWire(t, &fixturev1.Known{Duration: &durationpb.Duration{Seconds: -maxDurationSeconds - 1}}), -1, "duration", "seconds out of range"},
		{"duration nanos", known, mustWire(t, &fixturev1.Known{Duration: &durationpb.Duration{Nanos: 1e9}}), -1, "duration", "nanos out of range"},
		{"duration signs", known, mustWire(t, &fixturev1.Known{Duration: &durationpb.Duration{Seconds: 1, Nanos: -1}}), -1, "duration", "signs"},
		{"empty value", known, mustWire(t, &fixturev1.Known{Value: &structpb.Value{}}), -1, "value", "none of the oneof fields is set"},
		{"value nan", known, mustWire(t, &fixturev1.Known{RValue: []*structpb.Value{structpb.NewNumberValue(math.NaN())}}), -1, "rValue[0]", "invalid NaN value"},
		{"value in struct", known, mustWire(t, &fixturev1.Known{Struct: &structpb.Struct{Fields: map[string]*structpb.Value{"k": {}}}}), -1, `struct.fields["k"]`, "none of the oneof"},
		{"field mask invalid", known, mustWire(t, &fixturev1.Known{FieldMask: &fieldmaskpb.FieldMask{Paths: []string{"a..b"}}}), -1, "fieldMask", "invalid path"},
		{"field mask irreversible", known, mustWire(t, &fixturev1.Known{FieldMask: &fieldmaskpb.FieldMask{Paths: []string{"foo_1"}}}), -1, "fieldMask", "irreversible"},
		{"field mask upper", known, mustWire(t, &fixturev1.Known{FieldMask: &fieldmaskpb.FieldMask{Paths: []string{"fooBar"}}}), -1, "fieldMask", "irreversible"},
		{"any unresolvable", known, mustWire(t, &fixturev1.Known{Any: &anypb.Any{TypeUrl: "type.googleapis.com/no.Such"}}), -1, "any", "unable to resolve"},
		{"any no type", known, mustWire(t, &fixturev1.Known{Any: &anypb.Any{Value: []byte{8, 1}}}), -1, "any", "type_url is not set"},
		{"any bad content", known, mustWire(t, &fixturev1.Known{Any: &anypb.Any{TypeUrl: "type.googleapis.com/rpckit.fixture.v1.Leaf", Value: []byte{0x0a, 0x05}}}), -1, "any", "length past the end"},
		{"any type url utf8", known, lenRec(18, lenRec(1, []byte("x\xff/rpckit.fixture.v1.Leaf"))), 5, "any.typeUrl", "invalid UTF-8"},
		{"any bad wkt", known, mustWire(t, &fixturev1.Known{Any: mustAny(t, &durationpb.Duration{Seconds: 1, Nanos: -1})}), -1, "any", "signs"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			typ := tc.typ
			out, err := Marshal(typ, tc.wire)
			if err == nil {
				t.Fatalf("no error; output %s", out)
			}
			var te *Error
			if !errors.As(err, &te) {
				t.Fatalf("error %T %v, want *Error", err, err)
			}
			if tc.offset >= 0 && te.Offset != tc.offset {
				t.Errorf("offset %d, want %d: %v", te.Offset, tc.offset, err)
			}
			if !strings.Contains(te.Path, tc.path) || !strings.Contains(te.Msg, tc.msg) {
				t.Errorf("error %q (path %q, msg %q), want path with %q and message with %q", err, te.Path, te.Msg, tc.path, tc.msg)
			}
			if !strings.HasPrefix(err.Error(), "transcode: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
			// protojson rejects these too
			md := typ.Desc
			if _, perr, merr := oracle(md, tc.wire, MarshalOptions{}); perr == nil && merr == nil {
				t.Errorf("protojson accepts the input")
			}
		})
	}
}

func TestMarshalIndentError(t *testing.T) {
	_, err := MarshalOptions{Indent: " x"}.Marshal(typeOf(&fixturev1.Rich{}), nil)
	if err == nil || !strings.Contains(err.Error(), "indent") {
		t.Fatalf("error %v, want one about the indent", err)
	}
}

// TestMarshalTruncations cuts a message at every offset: where protobuf-go
// fails to parse, Marshal fails with an offset inside the input.
func TestMarshalTruncations(t *testing.T) {
	m := messageCases(t)["known"]
	b := mustWire(t, m)
	md := m.ProtoReflect().Descriptor()
	for n := range len(b) {
		cut := b[:n]
		_, perr, merr := oracle(md, cut, MarshalOptions{})
		out, err := Marshal(typeOf(m), cut)
		if (perr != nil || merr != nil) != (err != nil) {
			t.Fatalf("cut at %d: protojson parse %v, print %v; we %v %s", n, perr, merr, err, out)
		}
		var te *Error
		if err != nil && (!errors.As(err, &te) || te.Offset < 0 || te.Offset > n) {
			t.Fatalf("cut at %d: error %v outside the input", n, err)
		}
	}
}

// TestMarshalDepth holds the nesting limit against protobuf-go's: 10000
// messages deep in all.
func TestMarshalDepth(t *testing.T) {
	nest := func(levels int) []byte {
		b := []byte{}
		for range levels - 1 {
			b = lenRec(18, b)
		}
		return b
	}
	for _, levels := range []int{wire.DefaultMaxDepth, wire.DefaultMaxDepth + 1} {
		b := nest(levels)
		perr := proto.Unmarshal(b, &fixturev1.Rich{})
		_, err := Marshal(typeOf(&fixturev1.Rich{}), b)
		if (perr != nil) != (err != nil) {
			t.Fatalf("%d levels: protobuf-go %v, we %v", levels, perr, err)
		}
		if err != nil && !errors.Is(err, &wire.Error{Code: wire.CodeDepth}) {
			t.Fatalf("%d levels: %v, want a depth error", levels, err)
		}
	}
}

// TestMarshalDirectGivesUpEarly nests messages that each end with a record
// out of order: past the first few levels the direct path must see it
// before printing the level below, or every level would print everything
// below it again.
func TestMarshalDirectGivesUpEarly(t *testing.T) {
	b := []byte{}
	for range 3000 {
		b = cat(lenRec(18, b), varintRec(1, 7))
	}
	var e encoder
	e.reset(&MarshalOptions{}, b, nil)
	if err := e.root(planOf(typeOf(&fixturev1.Rich{}))); err != nil {
		t.Fatal(err)
	}
	if e.discarded > maxHopeful*len(e.out) {
		t.Errorf("printed and dropped %d bytes for an output of %d", e.discarded, len(e.out))
	}
	checkAgainstOracle(t, "nested", (&fixturev1.Rich{}).ProtoReflect().Descriptor(), b, MarshalOptions{})
}
