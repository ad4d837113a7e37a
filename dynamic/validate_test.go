package dynamic_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
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

// TestValidateStringRuns holds Validate to proto.Unmarshal on messages
// built to try the way it checks strings: many strings to a message,
// valid and broken multi-byte sequences placed at their edges (a sequence
// cut at the end of one string, continuation bytes at the start of the
// next), with the bytes between them sometimes all ASCII (one-byte tags,
// lengths and varints, fixed values without high bits, the heads of
// sub-messages and map entries) and sometimes not (long lengths and
// varints, doubles, bytes fields, packed runs). A valid message must
// also pass the non-recursive walk on its own: a run that took in a byte
// outside a string that is not ASCII would fail it, and leave the message
// to the slower recursive walk.
func TestValidateStringRuns(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	pieces := []string{"a", "ok", "é", "€", "😀", "plain text", "\xe2\x82", "\x82", "\xac", "\xf0\x9f", "\xff", "\xc0\xaf", "\xed\xa0\x80"}
	text := func() []byte {
		var s []byte
		bad := r.IntN(4) == 0
		for range r.IntN(6) {
			p := pieces[r.IntN(6)] // valid pieces
			if bad && r.IntN(3) == 0 {
				p = pieces[6+r.IntN(len(pieces)-6)]
			}
			s = append(s, p...)
		}
		if r.IntN(8) == 0 { // a two-byte length
			s = append(s, bytes.Repeat([]byte("long"), 40)...)
		}
		return s
	}
	varint := func() []byte { return protowire.AppendVarint(nil, r.Uint64()>>r.IntN(64)) }
	var leaf func(depth int) []byte
	leaf = func(depth int) []byte {
		var b []byte
		for range r.IntN(8) {
			switch r.IntN(7) {
			case 0:
				b = append(b, lenRec(1, text())...)
			case 1:
				b = append(b, cat(tagb(2, protowire.VarintType), varint())...)
			case 2:
				b = append(b, lenRec(3, cat(varint(), varint()))...)
			case 3:
				if depth > 0 {
					b = append(b, lenRec(4, leaf(depth-1))...)
				}
			case 4:
				b = append(b, lenRec(5, cat(lenRec(1, text()), tagb(2, protowire.VarintType), varint()))...)
			case 5:
				b = append(b, lenRec(6, text())...)
			case 6:
				b = append(b, cat(tagb(7, protowire.VarintType), varint())...)
			}
		}
		return b
	}
	rich := func() []byte {
		var b []byte
		for range r.IntN(10) {
			switch r.IntN(5) {
			case 0:
				b = append(b, lenRec(14, text())...)
			case 1:
				b = protowire.AppendFixed64(append(b, tagb(8, protowire.Fixed64Type)...), r.Uint64()&0x7f7f7f7f7f7f7f7f>>(8*r.IntN(2)))
			case 2:
				b = protowire.AppendFixed64(append(b, tagb(12, protowire.Fixed64Type)...), r.Uint64())
			case 3:
				b = append(b, lenRec(15, text())...) // bytes: any content
			case 4:
				b = append(b, lenRec(46, leaf(2))...) // r_leaf, a two-byte tag
			}
		}
		return b
	}
	leafType := dynamic.TypeOf((&fixturev1.Leaf{}).ProtoReflect().Descriptor())
	var accepted, rejected int
	for range 20000 {
		cases := []struct {
			t   *dynamic.Type
			b   []byte
			msg proto.Message
		}{{leafType, leaf(3), new(fixturev1.Leaf)}, {richType, rich(), new(fixturev1.Rich)}}
		for _, c := range cases {
			err := dynamic.Validate(c.t, c.b)
			perr := proto.Unmarshal(c.b, c.msg)
			if (err == nil) != (perr == nil) {
				t.Fatalf("%s %x: Validate = %v, proto.Unmarshal = %v", c.t.Desc.Name(), c.b, err, perr)
			}
			if err == nil {
				accepted++
				if !dynamic.ValidFast(c.t, c.b, dynamic.DefaultMaxDepth) {
					t.Fatalf("%s %x: valid, but the non-recursive walk gives up on it", c.t.Desc.Name(), c.b)
				}
			} else {
				rejected++
			}
		}
	}
	if accepted < 5000 || rejected < 5000 {
		t.Fatalf("%d messages accepted and %d rejected: the generator needs a better mix", accepted, rejected)
	}
}
