package dynamic_test

import (
	"errors"
	"testing"

	"github.com/rpckit/rpckit/dynamic"
	fixturev1 "github.com/rpckit/rpckit/internal/gen/rpckit/fixture/v1"
	"github.com/rpckit/rpckit/wire"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/dynamicpb"
)

var richType = dynamic.TypeOf((&fixturev1.Rich{}).ProtoReflect().Descriptor())

func tagb(n protowire.Number, t protowire.Type) []byte { return protowire.AppendTag(nil, n, t) }

func cat(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

func lenRec(n protowire.Number, payload []byte) []byte { return wire.AppendLen(nil, n, payload) }

// richLeaf encodes a Rich with r_leaf elements; the last holds bad.
func richLeaves(bad []byte) []byte {
	good := lenRec(1, []byte("ok"))
	return cat(lenRec(46, good), lenRec(46, good), lenRec(46, bad))
}

var badInputs = []struct {
	name string
	b    []byte
	code wire.Code
	path string
}{
	{"truncated varint", cat(tagb(1, protowire.VarintType), []byte{0x80}), wire.CodeTruncatedVarint, ""},
	{"length past end", cat(tagb(14, protowire.BytesType), []byte{9, 'a'}), wire.CodeTruncated, ""},
	{"bad wire type", []byte{0x0f}, wire.CodeWireType, ""},
	{"open group", cat(tagb(900, protowire.StartGroupType), tagb(1, protowire.VarintType), []byte{1}), wire.CodeGroup, ""},
	{"bad utf8", lenRec(14, []byte{0xff, 0xfe}), wire.CodeUTF8, "f_string"},
	{"nested truncated", richLeaves(cat(tagb(2, protowire.VarintType), []byte{0x80})), wire.CodeTruncatedVarint, "r_leaf[2]"},
	{"nested utf8", richLeaves(lenRec(1, []byte{0xc0})), wire.CodeUTF8, "r_leaf[2].name"},
	{"map value utf8", lenRec(72, cat(lenRec(1, []byte("k")), lenRec(2, []byte{0xff}))), wire.CodeUTF8, `m_string["k"].value`},
	{"deep packed", lenRec(17, lenRec(3, []byte{0x80})), wire.CodeTruncatedVarint, "f_leaf.values"},
	{"fast path nested utf8", lenRec(17, lenRec(4, lenRec(4, lenRec(1, []byte{0xff})))), wire.CodeUTF8, "f_leaf.next.next.name"},
	{"deep nesting", deepChild(dynamic.DefaultMaxDepth + 5), wire.CodeDepth, ""},
}

// deepChild nests Rich.child n deep.
func deepChild(n int) []byte {
	b := []byte{}
	for range n {
		b = lenRec(18, b)
	}
	return b
}

func TestValidateBad(t *testing.T) {
	for _, tc := range badInputs {
		t.Run(tc.name, func(t *testing.T) {
			err := dynamic.Validate(richType, tc.b)
			var e *dynamic.Error
			if !errors.As(err, &e) {
				t.Fatalf("Validate = %v, want *dynamic.Error", err)
			}
			if e.Code != tc.code || (tc.path != "" && e.Path != tc.path) || e.Offset < 0 || e.Offset > len(tc.b) {
				t.Fatalf("Validate = %v (code %v, path %q), want code %v path %q", err, e.Code, e.Path, tc.code, tc.path)
			}
			if proto.Unmarshal(tc.b, dynamicpb.NewMessage(richType.Desc)) == nil {
				t.Fatalf("protobuf-go accepts what Validate rejects")
			}
		})
	}
}

func TestValidateCorpus(t *testing.T) {
	for _, s := range corpus(t, 40) {
		if err := dynamic.Validate(dynamic.TypeOf(s.m.Descriptor()), s.b); err != nil {
			t.Errorf("%s: Validate = %v", s.name, err)
		}
	}
}

func TestGetBad(t *testing.T) {
	for _, tc := range badInputs {
		t.Run(tc.name, func(t *testing.T) {
			v := dynamic.NewValue(richType, tc.b)
			for _, p := range []string{"f_string", "r_leaf[2].name", `m_string["k"]`, "f_leaf.values[0]"} {
				_, _ = v.Get(mustPath(t, p)) // must not panic
			}
			_, err := v.Get(mustPath(t, "f_int32"))
			if err == nil && tc.path == "" && tc.code != wire.CodeDepth {
				t.Fatalf("Get on top-level damage succeeds")
			}
		})
	}
}

func mustPath(t testing.TB, s string) dynamic.Path {
	t.Helper()
	p, err := dynamic.ParsePath(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestValidateDepth: the nesting limit counts as protobuf-go's recursion
// limit does, below and beyond the depth Validate walks without recursion,
// through one-byte tags (Leaf.next) and two-byte ones (Rich.child).
func TestValidateDepth(t *testing.T) {
	leafType := dynamic.TypeOf((&fixturev1.Leaf{}).ProtoReflect().Descriptor())
	nestings := []struct {
		name string
		t    *dynamic.Type
		nest func(int) []byte
		msg  func() proto.Message
	}{
		{"child", richType, deepChild, func() proto.Message { return new(fixturev1.Rich) }},
		{"next", leafType, deepNext, func() proto.Message { return new(fixturev1.Leaf) }},
	}
	for _, c := range nestings {
		for _, limit := range []int{1, 2, 3, 31, 32, 33, 34, 40} {
			for n := 0; n <= 42; n++ {
				b := c.nest(n)
				err := dynamic.ValidateOptions{MaxDepth: limit}.Validate(c.t, b)
				perr := proto.UnmarshalOptions{RecursionLimit: limit}.Unmarshal(b, c.msg())
				if (err == nil) != (perr == nil) {
					t.Errorf("%s: limit %d, nesting %d: Validate = %v, proto.Unmarshal = %v", c.name, limit, n, err, perr)
				}
			}
		}
	}
}

// deepNext nests Leaf.next n deep.
func deepNext(n int) []byte {
	b := []byte{}
	for range n {
		b = lenRec(4, b)
	}
	return b
}
