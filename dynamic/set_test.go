package dynamic_test

import (
	"fmt"
	"testing"

	"github.com/rpckit/rpckit/dynamic"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
)

// refEdit applies an edit to m the protobuf-go way; ok is false when the
// path names a list element that does not exist.
func refEdit(m protoreflect.Message, p dynamic.Path, val protoreflect.Value, del bool) bool {
	for i := 0; i < len(p); i++ {
		fd := m.Descriptor().Fields().ByName(protoreflect.Name(p[i].Name))
		last := i == len(p)-1
		switch {
		case last && del:
			m.Clear(fd)
			return true
		case last:
			m.Set(fd, val)
			return true
		case p[i+1].Kind != dynamic.StepField:
			next, ok, done := refElem(m, fd, p[i+1], i+1 == len(p)-1, val, del)
			if done || !ok {
				return ok
			}
			m, i = next, i+1
		case del && !m.Has(fd):
			return true
		default:
			m = m.Mutable(fd).Message()
		}
	}
	return true
}

// refElem edits or enters list element or map entry s of fd.
func refElem(m protoreflect.Message, fd protoreflect.FieldDescriptor, s dynamic.Step, last bool, val protoreflect.Value, del bool) (protoreflect.Message, bool, bool) {
	if fd.IsList() {
		if !m.Has(fd) || s.Index >= m.Get(fd).List().Len() {
			return nil, false, true
		}
		l := m.Mutable(fd).List()
		switch {
		case last && del:
			for j := s.Index; j < l.Len()-1; j++ {
				l.Set(j, l.Get(j+1))
			}
			l.Truncate(l.Len() - 1)
			return nil, true, true
		case last:
			l.Set(s.Index, val)
			return nil, true, true
		}
		return l.Get(s.Index).Message(), true, false
	}
	k := mapKey(fd.MapKey(), s)
	if del && (!m.Has(fd) || !m.Get(fd).Map().Has(k)) {
		return nil, true, true
	}
	mp := m.Mutable(fd).Map()
	switch {
	case last && del:
		mp.Clear(k)
		return nil, true, true
	case last:
		mp.Set(k, val)
		return nil, true, true
	}
	return mp.Mutable(k).Message(), true, false
}

// leafField returns the descriptor of the element p names.
func leafField(md protoreflect.MessageDescriptor, p dynamic.Path) protoreflect.FieldDescriptor {
	var fd protoreflect.FieldDescriptor
	for i, s := range p {
		if s.Kind != dynamic.StepField {
			if fd.IsMap() {
				fd = fd.MapValue()
			}
			continue
		}
		if i > 0 {
			md = fd.Message()
		}
		fd = md.Fields().ByName(protoreflect.Name(s.Name))
	}
	return fd
}

func TestSetDeleteDifferential(t *testing.T) {
	g := newGen(7)
	for _, s := range corpus(t, 25) {
		var paths []string
		pathsOf(s.m, "", 0, &paths)
		v := dynamic.NewValue(dynamic.TypeOf(s.m.Descriptor()), s.b)
		for n, ps := range paths {
			p := mustPath(t, ps)
			fd := leafField(s.m.Descriptor(), p)
			wholeList := (fd.IsList() || fd.IsMap()) && p[len(p)-1].Kind == dynamic.StepField
			checkEdit(t, s, v, p, protoreflect.Value{}, true, fmt.Sprintf("%s: Delete(%s)", s.name, ps))
			if !wholeList {
				val := g.value(fd, 1, nil)
				checkEdit(t, s, v, p, val, false, fmt.Sprintf("%s: Set(%s) #%d", s.name, ps, n))
			}
		}
	}
}

func checkEdit(t *testing.T, s sample, v dynamic.Value, p dynamic.Path, val protoreflect.Value, del bool, what string) {
	t.Helper()
	var got []byte
	var err error
	if del {
		got, err = v.Delete(nil, p)
	} else {
		got, err = v.Set(nil, p, val)
	}
	want := proto.Clone(s.m).(*dynamicpb.Message)
	ok := refEdit(want, p, val, del)
	if !ok {
		if err == nil {
			t.Fatalf("%s: no error for a missing element", what)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	gm := dynamicpb.NewMessage(s.m.Descriptor())
	if err := proto.Unmarshal(got, gm); err != nil {
		t.Fatalf("%s: result does not parse: %v", what, err)
	}
	if !sameMessage(gm, want) {
		t.Fatalf("%s:\ngot  %v\nwant %v", what, gm, want)
	}
}
