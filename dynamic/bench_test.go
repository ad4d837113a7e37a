package dynamic_test

import (
	"testing"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/internal/benchpair"
	"github.com/rpckit/rpckit/internal/fixture"
	fixturev1 "github.com/rpckit/rpckit/internal/gen/rpckit/fixture/v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
)

// benchCase is one fixture with the path each benchmark reads or edits.
type benchCase struct {
	name    string
	msg     proto.Message
	b       []byte
	deep    string // a deep leaf for Get
	edit    string // a field for Set and Delete
	keep    []string
	newMsg  func() proto.Message
	access  func(proto.Message) any
	change  func(proto.Message)
	erase   func(proto.Message)
	subset  func(proto.Message) proto.Message
	setWith protoreflect.Value
}

func benchCases(b *testing.B) []benchCase {
	b.Helper()
	cases := []benchCase{
		{
			name: "Small", msg: fixture.Small(), deep: "name", edit: "count",
			keep:   []string{"id", "status"},
			newMsg: func() proto.Message { return new(fixturev1.Small) },
			access: func(m proto.Message) any { return m.(*fixturev1.Small).GetName() },
			change: func(m proto.Message) { m.(*fixturev1.Small).Count = 77 },
			erase:  func(m proto.Message) { m.(*fixturev1.Small).Count = 0 },
			subset: func(m proto.Message) proto.Message {
				s := m.(*fixturev1.Small)
				return &fixturev1.Small{Id: s.Id, Status: s.Status}
			},
			setWith: protoreflect.ValueOfInt32(77),
		},
		{
			name: "Medium", msg: fixture.Medium(), deep: "header.meta.origin.port", edit: "header.meta.region",
			keep:   []string{"id", "header.meta.origin", "statuses", "score", "counters", "names"},
			newMsg: func() proto.Message { return new(fixturev1.Medium) },
			access: func(m proto.Message) any { return m.(*fixturev1.Medium).GetHeader().GetMeta().GetOrigin().GetPort() },
			change: func(m proto.Message) { m.(*fixturev1.Medium).Header.Meta.Region = "us-east-2" },
			erase:  func(m proto.Message) { m.(*fixturev1.Medium).Header.Meta.Region = "" },
			subset: func(m proto.Message) proto.Message {
				s := m.(*fixturev1.Medium)
				return &fixturev1.Medium{
					Id: s.Id, Header: &fixturev1.Header{Meta: &fixturev1.Meta{Origin: s.Header.Meta.Origin}},
					Statuses: s.Statuses, Score: s.Score, Counters: s.Counters, Names: s.Names,
				}
			},
			setWith: protoreflect.ValueOfString("us-east-2"),
		},
	}
	for i := range cases {
		var err error
		cases[i].b, err = proto.MarshalOptions{Deterministic: true}.Marshal(cases[i].msg)
		if err != nil {
			b.Fatal(err)
		}
	}
	return cases
}

func typeOf(m proto.Message) *dynamic.Type { return dynamic.TypeOf(m.ProtoReflect().Descriptor()) }

// The operations of the benchmarks, each made ready for a fixture: what
// generated code does for a task, what the engine does for it, and for
// some what dynamicpb does. Each returns a function doing it once.

func genGet(b *testing.B, c benchCase) func() {
	return func() {
		m := c.newMsg()
		if err := proto.Unmarshal(c.b, m); err != nil {
			b.Fatal(err)
		}
		_ = c.access(m)
	}
}

func dynamicpbGet(b *testing.B, c benchCase) func() {
	md := c.msg.ProtoReflect().Descriptor()
	path := mustPath(b, c.deep)
	return func() {
		m := dynamicpb.NewMessage(md)
		if err := proto.Unmarshal(c.b, m); err != nil {
			b.Fatal(err)
		}
		_ = reflectGet(m, path)
	}
}

func dynGet(b *testing.B, c benchCase) func() {
	v := dynamic.NewValue(typeOf(c.msg), c.b)
	path := mustPath(b, c.deep)
	return func() {
		if _, err := v.Get(path); err != nil {
			b.Fatal(err)
		}
	}
}

// reflectGet follows a path of field names through protoreflect.
func reflectGet(m protoreflect.Message, p dynamic.Path) protoreflect.Value {
	var v protoreflect.Value
	for _, s := range p {
		fd := m.Descriptor().Fields().ByName(protoreflect.Name(s.Name))
		v = m.Get(fd)
		if fd.Message() != nil {
			m = v.Message()
		}
	}
	return v
}

// genUnmarshal is generated code's Unmarshal, the baseline of Validate
// and of the DOM's load.
func genUnmarshal(b *testing.B, c benchCase) func() {
	return func() {
		if err := proto.Unmarshal(c.b, c.newMsg()); err != nil {
			b.Fatal(err)
		}
	}
}

func dynamicpbUnmarshal(b *testing.B, c benchCase) func() {
	md := c.msg.ProtoReflect().Descriptor()
	return func() {
		if err := proto.Unmarshal(c.b, dynamicpb.NewMessage(md)); err != nil {
			b.Fatal(err)
		}
	}
}

func dynValidate(b *testing.B, c benchCase) func() {
	t := typeOf(c.msg)
	return func() {
		if err := dynamic.Validate(t, c.b); err != nil {
			b.Fatal(err)
		}
	}
}

// genEdit is generated code's Unmarshal, edit and Marshal.
func genEdit(edit func(benchCase, proto.Message) proto.Message) func(*testing.B, benchCase) func() {
	return func(b *testing.B, c benchCase) func() {
		return func() {
			m := c.newMsg()
			if err := proto.Unmarshal(c.b, m); err != nil {
				b.Fatal(err)
			}
			if _, err := proto.Marshal(edit(c, m)); err != nil {
				b.Fatal(err)
			}
		}
	}
}

var (
	genSet    = genEdit(func(c benchCase, m proto.Message) proto.Message { c.change(m); return m })
	genDelete = genEdit(func(c benchCase, m proto.Message) proto.Message { c.erase(m); return m })
	genKeep   = genEdit(func(c benchCase, m proto.Message) proto.Message { return c.subset(m) })
)

func dynSet(b *testing.B, c benchCase) func() {
	v := dynamic.NewValue(typeOf(c.msg), c.b)
	path := mustPath(b, c.edit)
	dst := make([]byte, 0, 2*len(c.b))
	return func() {
		if _, err := v.Set(dst[:0], path, c.setWith); err != nil {
			b.Fatal(err)
		}
	}
}

func dynDelete(b *testing.B, c benchCase) func() {
	v := dynamic.NewValue(typeOf(c.msg), c.b)
	path := mustPath(b, c.edit)
	dst := make([]byte, 0, 2*len(c.b))
	return func() {
		if _, err := v.Delete(dst[:0], path); err != nil {
			b.Fatal(err)
		}
	}
}

func dynKeep(b *testing.B, c benchCase) func() {
	v := dynamic.NewValue(typeOf(c.msg), c.b)
	fm, err := dynamic.NewFieldMask(typeOf(c.msg), c.keep...)
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]byte, 0, len(c.b))
	return func() {
		if _, err := v.Keep(dst[:0], fm); err != nil {
			b.Fatal(err)
		}
	}
}

func dynDOMLoad(b *testing.B, c benchCase) func() {
	var pool dynamic.DocPool
	t := typeOf(c.msg)
	return func() {
		d := pool.Get()
		if err := d.Load(t, c.b); err != nil {
			b.Fatal(err)
		}
		pool.Put(d)
	}
}

// genMarshal is generated code's Marshal of the fixture with the edit of
// Set made, the baseline of the DOM's serialize.
func genMarshal(b *testing.B, c benchCase) func() {
	m := c.newMsg()
	if err := proto.Unmarshal(c.b, m); err != nil {
		b.Fatal(err)
	}
	c.change(m)
	dst := make([]byte, 0, 2*len(c.b))
	return func() {
		if _, err := (proto.MarshalOptions{}).MarshalAppend(dst[:0], m); err != nil {
			b.Fatal(err)
		}
	}
}

func dynDOMSerialize(b *testing.B, c benchCase) func() {
	var d dynamic.Doc
	if err := d.Load(typeOf(c.msg), c.b); err != nil {
		b.Fatal(err)
	}
	if err := d.Set(mustPath(b, c.edit), c.setWith); err != nil {
		b.Fatal(err)
	}
	dst := make([]byte, 0, 2*len(c.b))
	return func() { _ = d.AppendTo(dst[:0]) }
}

// variant is one way of doing a benchmark's task.
type variant struct {
	name string
	op   func(*testing.B, benchCase) func()
}

// runVariants runs each variant on each fixture as a sub-benchmark
// Fixture/variant; sized ones report throughput over the fixture's bytes.
func runVariants(b *testing.B, sized bool, vs ...variant) {
	for _, c := range benchCases(b) {
		for _, v := range vs {
			b.Run(c.name+"/"+v.name, func(b *testing.B) {
				f := v.op(b, c)
				if sized {
					b.SetBytes(int64(len(c.b)))
				}
				for b.Loop() {
					f()
				}
			})
		}
	}
}

func BenchmarkGet(b *testing.B) {
	runVariants(b, true, variant{"generated", genGet}, variant{"dynamicpb", dynamicpbGet}, variant{"dynamic", dynGet})
}

func BenchmarkValidate(b *testing.B) {
	runVariants(b, true, variant{"generated", genUnmarshal}, variant{"dynamic", dynValidate})
}

func BenchmarkSet(b *testing.B) {
	runVariants(b, false, variant{"generated", genSet}, variant{"dynamic", dynSet})
}

func BenchmarkDelete(b *testing.B) {
	runVariants(b, false, variant{"generated", genDelete}, variant{"dynamic", dynDelete})
}

func BenchmarkKeep(b *testing.B) {
	runVariants(b, false, variant{"generated", genKeep}, variant{"dynamic", dynKeep})
}

func BenchmarkDOMLoad(b *testing.B) {
	runVariants(b, true, variant{"generated", genUnmarshal}, variant{"dynamicpb", dynamicpbUnmarshal}, variant{"dynamic", dynDOMLoad})
}

func BenchmarkDOMSerialize(b *testing.B) {
	runVariants(b, true, variant{"generated", genMarshal}, variant{"dynamic", dynDOMSerialize})
}

// BenchmarkTargets measures the engine against generated code on the
// Medium fixture for each speed target, the two in alternating rounds
// (see internal/benchpair); x is how many times faster the engine is.
// Run it with -benchtime 30x for 30 pairs of rounds.
func BenchmarkTargets(b *testing.B) {
	var medium benchCase
	for _, c := range benchCases(b) {
		if c.name == "Medium" {
			medium = c
		}
	}
	for _, t := range []struct {
		name       string
		base, ours func(*testing.B, benchCase) func()
	}{
		{"Get", genGet, dynGet},
		{"Set", genSet, dynSet},
		{"Delete", genDelete, dynDelete},
		{"Keep", genKeep, dynKeep},
		{"DOMLoad", genUnmarshal, dynDOMLoad},
		{"DOMSerialize", genMarshal, dynDOMSerialize},
		{"Validate", genUnmarshal, dynValidate},
	} {
		b.Run(t.name, func(b *testing.B) {
			benchpair.Compare(b, t.base(b, medium), t.ours(b, medium))
		})
	}
}
