package dynamic_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/internal/fixture"
	fixturev1 "github.com/rpckit/rpckit/internal/gen/rpckit/fixture/v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
)

// fuzzSeeds adds the corpus and the bad inputs as seeds.
func fuzzSeeds(f *testing.F) {
	for _, s := range corpus(f, 4) {
		if s.m.Descriptor() == richType.Desc {
			f.Add(s.b)
		}
	}
	for _, tc := range badInputs {
		if len(tc.b) < 1024 {
			f.Add(tc.b)
		}
	}
}

// FuzzValidate holds Validate against proto.Unmarshal: both accept the
// same bytes. The reference is generated code, whose decoder is protobuf-go's
// fast path; dynamicpb's reflective decoder panics on some malformed map
// entries.
//
// The same bytes are also checked as a Leaf and as the Medium fixture,
// whose message fields have one-byte tags, so that Validate descends into
// sub-messages on its non-recursive path as well.
func FuzzValidate(f *testing.F) {
	fuzzSeeds(f)
	medium, err := proto.Marshal(fixture.Medium())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(medium)
	types := []struct {
		t   *dynamic.Type
		msg func() proto.Message
	}{
		{richType, func() proto.Message { return new(fixturev1.Rich) }},
		{dynamic.TypeOf((&fixturev1.Leaf{}).ProtoReflect().Descriptor()), func() proto.Message { return new(fixturev1.Leaf) }},
		{dynamic.TypeOf((&fixturev1.Medium{}).ProtoReflect().Descriptor()), func() proto.Message { return new(fixturev1.Medium) }},
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, c := range types {
			err := dynamic.Validate(c.t, b)
			perr := proto.Unmarshal(b, c.msg())
			if (err == nil) != (perr == nil) {
				t.Fatalf("%s: Validate: %v; proto.Unmarshal: %v", c.t.Desc.FullName(), err, perr)
			}
			if e, ok := err.(*dynamic.Error); ok && (e.Offset < 0 || e.Offset > len(b)) {
				t.Fatalf("error offset %d outside 0..%d", e.Offset, len(b))
			}
		}
	})
}

// unmarshalGuarded is proto.Unmarshal that turns the panics of dynamicpb's
// reflective decoder on some malformed map entries into an error.
func unmarshalGuarded(b []byte, m proto.Message) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("proto.Unmarshal panics: %v", r)
		}
	}()
	if err := proto.Unmarshal(b, new(fixturev1.Rich)); err != nil {
		return err
	}
	return proto.Unmarshal(b, m)
}

// FuzzGet reads every path protobuf-go sees in valid input and compares;
// on any input Get must not panic.
func FuzzGet(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		v := dynamic.NewValue(richType, b)
		m := dynamicpb.NewMessage(richType.Desc)
		if unmarshalGuarded(b, m) != nil {
			for _, p := range []string{"f_string", "child.f_leaf.name", "r_leaf[1].values[2]", `m_leaf["a"].id`, "m_int32[1]", "c_leaf.next"} {
				_, _ = v.Get(mustPath(t, p))
			}
			return
		}
		var paths []string
		pathsOf(m, "", 0, &paths)
		for _, p := range paths {
			e, err := v.Get(mustPath(t, p))
			if err != nil {
				t.Fatalf("Get(%q): %v", p, err)
			}
			want, fd, present := truth(m, p)
			checkElem(t, p, e, want, fd, present)
		}
	})
}

// FuzzDoc loads any bytes into a Doc: when Load succeeds, serializing
// gives the bytes back, and an edit gives what dynamicpb gives.
func FuzzDoc(f *testing.F) {
	fuzzSeeds(f)
	del := mustPath(f, "f_leaf.name")
	set := mustPath(f, `m_leaf["k"].id`)
	f.Fuzz(func(t *testing.T, b []byte) {
		var d dynamic.Doc
		if err := d.Load(richType, b); err != nil {
			return
		}
		if got := d.Marshal(); !bytes.Equal(got, b) {
			t.Fatalf("round trip differs")
		}
		m := dynamicpb.NewMessage(richType.Desc)
		if unmarshalGuarded(b, m) != nil {
			return
		}
		val := protoreflect.ValueOfInt64(42)
		if d.Delete(del) != nil || d.Set(set, val) != nil {
			t.Fatalf("edits fail on valid input")
		}
		refEdit(m, del, protoreflect.Value{}, true)
		refEdit(m, set, val, false)
		got := dynamicpb.NewMessage(richType.Desc)
		if err := proto.Unmarshal(d.Marshal(), got); err != nil || !sameMessage(got, m) {
			t.Fatalf("edited Doc: %v, %v; want %v", got, err, m)
		}
	})
}

// FuzzEdit runs Set, Delete, Keep and Mask over any bytes: no panics, and
// on valid input the results match dynamicpb.
func FuzzEdit(f *testing.F) {
	fuzzSeeds(f)
	fm, err := dynamic.NewFieldMask(richType, "f_leaf.name", "r_leaf.values", "m_leaf.id", "c_leaf", "child.f_int32")
	if err != nil {
		f.Fatal(err)
	}
	set := mustPath(f, "child.r_int32[0]")
	f.Fuzz(func(t *testing.T, b []byte) {
		v := dynamic.NewValue(richType, b)
		masked, merr := v.Mask(nil, fm)
		kept, kerr := v.Keep(nil, fm)
		edited, serr := v.Set(nil, set, protoreflect.ValueOfInt32(-5))
		m := dynamicpb.NewMessage(richType.Desc)
		if unmarshalGuarded(b, m) != nil {
			return
		}
		if merr != nil || kerr != nil {
			t.Fatalf("Mask: %v, Keep: %v on valid input", merr, kerr)
		}
		outs := [][]byte{masked, kept}
		if serr == nil {
			outs = append(outs, edited)
		}
		for _, out := range outs {
			if err := unmarshalGuarded(out, dynamicpb.NewMessage(richType.Desc)); err != nil {
				t.Fatalf("output does not parse: %v", err)
			}
		}
	})
}
