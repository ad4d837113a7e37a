package dynamic_test

import (
	"strings"
	"testing"

	"github.com/rpckit/rpckit/dynamic"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
)

// maskTree is a field mask as nested names; a nil subtree is a leaf.
type maskTree map[protoreflect.Name]maskTree

func (tr maskTree) add(segs []string) {
	name := protoreflect.Name(segs[0])
	sub, seen := tr[name]
	switch {
	case seen && sub == nil:
	case len(segs) == 1:
		tr[name] = nil
	default:
		if sub == nil {
			sub = maskTree{}
			tr[name] = sub
		}
		sub.add(segs[1:])
	}
}

// randomPaths picks field mask paths of md, up to three deep.
func (g *gen) randomPaths(md protoreflect.MessageDescriptor) []string {
	var out []string
	for range 1 + g.r.IntN(5) {
		var segs []string
		cur := md
		for cur != nil && len(segs) < 3 {
			fds := cur.Fields()
			fd := fds.Get(g.r.IntN(fds.Len()))
			segs = append(segs, string(fd.Name()))
			cur = fd.Message()
			if fd.IsMap() {
				cur = fd.MapValue().Message()
			}
			if !g.chance(0.5) {
				break
			}
		}
		out = append(out, strings.Join(segs, "."))
	}
	return out
}

func elemMessages(m protoreflect.Message, fd protoreflect.FieldDescriptor, fn func(protoreflect.Message)) {
	switch {
	case fd.IsList():
		for i := range m.Get(fd).List().Len() {
			fn(m.Get(fd).List().Get(i).Message())
		}
	case fd.IsMap():
		m.Get(fd).Map().Range(func(_ protoreflect.MapKey, v protoreflect.Value) bool {
			fn(v.Message())
			return true
		})
	default:
		fn(m.Mutable(fd).Message())
	}
}

// refMask clears the fields of tr in m, protobuf-go's way.
func refMask(m protoreflect.Message, tr maskTree) {
	for name, sub := range tr {
		fd := m.Descriptor().Fields().ByName(name)
		switch {
		case sub == nil:
			m.Clear(fd)
		case m.Has(fd):
			elemMessages(m, fd, func(e protoreflect.Message) { refMask(e, sub) })
		}
	}
}

// refKeep trims m to the fields of tr, protobuf-go's way: a copy of the
// selected fields into a new message.
func refKeep(m protoreflect.Message, tr maskTree) protoreflect.Message {
	out := m.New()
	for name, sub := range tr {
		fd := m.Descriptor().Fields().ByName(name)
		switch {
		case !m.Has(fd):
		case sub == nil:
			out.Set(fd, m.Get(fd))
		case fd.IsList():
			l := out.Mutable(fd).List()
			elemMessages(m, fd, func(e protoreflect.Message) { l.Append(protoreflect.ValueOfMessage(refKeep(e, sub))) })
		case fd.IsMap():
			mp := out.Mutable(fd).Map()
			m.Get(fd).Map().Range(func(k protoreflect.MapKey, v protoreflect.Value) bool {
				mp.Set(k, protoreflect.ValueOfMessage(refKeep(v.Message(), sub)))
				return true
			})
		default:
			out.Set(fd, protoreflect.ValueOfMessage(refKeep(m.Get(fd).Message(), sub)))
		}
	}
	return out
}

func TestMaskKeepDifferential(t *testing.T) {
	g := newGen(11)
	for _, s := range corpus(t, 40) {
		typ := dynamic.TypeOf(s.m.Descriptor())
		v := dynamic.NewValue(typ, s.b)
		for range 6 {
			paths := g.randomPaths(s.m.Descriptor())
			fm, err := dynamic.NewFieldMask(typ, paths...)
			if err != nil {
				t.Fatalf("NewFieldMask(%q): %v", paths, err)
			}
			tr := maskTree{}
			for _, p := range paths {
				tr.add(strings.Split(p, "."))
			}
			masked := proto.Clone(s.m).(*dynamicpb.Message)
			refMask(masked, tr)
			got, err := v.Mask(nil, fm)
			checkTrim(t, s, got, err, masked, "Mask", paths)
			kept := refKeep(s.m, tr)
			got, err = v.Keep(nil, fm)
			checkTrim(t, s, got, err, kept.Interface(), "Keep", paths)
		}
	}
}

func checkTrim(t *testing.T, s sample, got []byte, err error, want proto.Message, op string, paths []string) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %s(%q): %v", s.name, op, paths, err)
	}
	gm := dynamicpb.NewMessage(s.m.Descriptor())
	if err := proto.Unmarshal(got, gm); err != nil {
		t.Fatalf("%s: %s(%q) does not parse: %v", s.name, op, paths, err)
	}
	if !sameMessage(gm, want) {
		t.Fatalf("%s: %s(%q):\ngot  %v\nwant %v", s.name, op, paths, gm, want)
	}
}
