package dynamic_test

import (
	"testing"

	"github.com/rpckit/rpckit/dynamic"
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

func BenchmarkGet(b *testing.B) {
	for _, c := range benchCases(b) {
		b.Run(c.name+"/generated", func(b *testing.B) {
			b.SetBytes(int64(len(c.b)))
			for b.Loop() {
				m := c.newMsg()
				if err := proto.Unmarshal(c.b, m); err != nil {
					b.Fatal(err)
				}
				_ = c.access(m)
			}
		})
		b.Run(c.name+"/dynamicpb", func(b *testing.B) {
			md := c.msg.ProtoReflect().Descriptor()
			path := mustPath(b, c.deep)
			b.SetBytes(int64(len(c.b)))
			for b.Loop() {
				m := dynamicpb.NewMessage(md)
				if err := proto.Unmarshal(c.b, m); err != nil {
					b.Fatal(err)
				}
				_ = reflectGet(m, path)
			}
		})
		b.Run(c.name+"/dynamic", func(b *testing.B) {
			v := dynamic.NewValue(typeOf(c.msg), c.b)
			path := mustPath(b, c.deep)
			b.SetBytes(int64(len(c.b)))
			for b.Loop() {
				if _, err := v.Get(path); err != nil {
					b.Fatal(err)
				}
			}
		})
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

func BenchmarkValidate(b *testing.B) {
	for _, c := range benchCases(b) {
		b.Run(c.name+"/generated", func(b *testing.B) {
			b.SetBytes(int64(len(c.b)))
			for b.Loop() {
				if err := proto.Unmarshal(c.b, c.newMsg()); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/dynamic", func(b *testing.B) {
			t := typeOf(c.msg)
			b.SetBytes(int64(len(c.b)))
			for b.Loop() {
				if err := dynamic.Validate(t, c.b); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkSet(b *testing.B) {
	for _, c := range benchCases(b) {
		b.Run(c.name+"/generated", func(b *testing.B) {
			for b.Loop() {
				m := c.newMsg()
				if err := proto.Unmarshal(c.b, m); err != nil {
					b.Fatal(err)
				}
				c.change(m)
				if _, err := proto.Marshal(m); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/dynamic", func(b *testing.B) {
			v := dynamic.NewValue(typeOf(c.msg), c.b)
			path := mustPath(b, c.edit)
			dst := make([]byte, 0, 2*len(c.b))
			for b.Loop() {
				if _, err := v.Set(dst[:0], path, c.setWith); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDelete(b *testing.B) {
	for _, c := range benchCases(b) {
		b.Run(c.name+"/generated", func(b *testing.B) {
			for b.Loop() {
				m := c.newMsg()
				if err := proto.Unmarshal(c.b, m); err != nil {
					b.Fatal(err)
				}
				c.erase(m)
				if _, err := proto.Marshal(m); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/dynamic", func(b *testing.B) {
			v := dynamic.NewValue(typeOf(c.msg), c.b)
			path := mustPath(b, c.edit)
			dst := make([]byte, 0, 2*len(c.b))
			for b.Loop() {
				if _, err := v.Delete(dst[:0], path); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkKeep(b *testing.B) {
	for _, c := range benchCases(b) {
		b.Run(c.name+"/generated", func(b *testing.B) {
			for b.Loop() {
				m := c.newMsg()
				if err := proto.Unmarshal(c.b, m); err != nil {
					b.Fatal(err)
				}
				if _, err := proto.Marshal(c.subset(m)); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/dynamic", func(b *testing.B) {
			v := dynamic.NewValue(typeOf(c.msg), c.b)
			fm, err := dynamic.NewFieldMask(typeOf(c.msg), c.keep...)
			if err != nil {
				b.Fatal(err)
			}
			dst := make([]byte, 0, len(c.b))
			for b.Loop() {
				if _, err := v.Keep(dst[:0], fm); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDOMLoad(b *testing.B) {
	for _, c := range benchCases(b) {
		b.Run(c.name+"/generated", func(b *testing.B) {
			b.SetBytes(int64(len(c.b)))
			for b.Loop() {
				if err := proto.Unmarshal(c.b, c.newMsg()); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/dynamicpb", func(b *testing.B) {
			md := c.msg.ProtoReflect().Descriptor()
			b.SetBytes(int64(len(c.b)))
			for b.Loop() {
				if err := proto.Unmarshal(c.b, dynamicpb.NewMessage(md)); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/dynamic", func(b *testing.B) {
			var pool dynamic.DocPool
			t := typeOf(c.msg)
			b.SetBytes(int64(len(c.b)))
			for b.Loop() {
				d := pool.Get()
				if err := d.Load(t, c.b); err != nil {
					b.Fatal(err)
				}
				pool.Put(d)
			}
		})
	}
}

func BenchmarkDOMSerialize(b *testing.B) {
	for _, c := range benchCases(b) {
		b.Run(c.name+"/generated", func(b *testing.B) {
			m := c.newMsg()
			if err := proto.Unmarshal(c.b, m); err != nil {
				b.Fatal(err)
			}
			c.change(m)
			dst := make([]byte, 0, 2*len(c.b))
			b.SetBytes(int64(len(c.b)))
			for b.Loop() {
				if _, err := (proto.MarshalOptions{}).MarshalAppend(dst[:0], m); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/dynamic", func(b *testing.B) {
			var d dynamic.Doc
			if err := d.Load(typeOf(c.msg), c.b); err != nil {
				b.Fatal(err)
			}
			if err := d.Set(mustPath(b, c.edit), c.setWith); err != nil {
				b.Fatal(err)
			}
			dst := make([]byte, 0, 2*len(c.b))
			b.SetBytes(int64(len(c.b)))
			for b.Loop() {
				_ = d.AppendTo(dst[:0])
			}
		})
	}
}
