package dynamic_test

import (
	"bytes"
	"fmt"
	"math"
	"testing"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/internal/fixture"
	fixturev1 "github.com/rpckit/rpckit/internal/gen/rpckit/fixture/v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
)

// schemas are the message types of the differential tests.
var schemas = []protoreflect.MessageDescriptor{
	(&fixturev1.Rich{}).ProtoReflect().Descriptor(),
	(&fixturev1.Legacy{}).ProtoReflect().Descriptor(),
	(&fixturev1.Medium{}).ProtoReflect().Descriptor(),
	(&fixturev1.Small{}).ProtoReflect().Descriptor(),
}

// sample is wire bytes with protobuf-go's reading of them.
type sample struct {
	name string
	b    []byte
	m    *dynamicpb.Message
}

// corpus returns the shared corpus: the benchmark fixtures and, per
// schema, random scrambled messages.
func corpus(t testing.TB, perSchema int) []sample {
	var out []sample
	for _, m := range []proto.Message{fixture.Small(), fixture.Medium()} {
		b, _ := proto.MarshalOptions{Deterministic: true}.Marshal(m)
		out = append(out, mustSample(t, "fixture "+string(m.ProtoReflect().Descriptor().Name()), m.ProtoReflect().Descriptor(), b))
	}
	for _, md := range schemas {
		g := newGen(uint64(len(md.FullName())))
		for i := range perSchema {
			out = append(out, mustSample(t, fmt.Sprintf("%s#%d", md.Name(), i), md, g.encode(md)))
		}
	}
	return out
}

func mustSample(t testing.TB, name string, md protoreflect.MessageDescriptor, b []byte) sample {
	t.Helper()
	m := dynamicpb.NewMessage(md)
	if err := proto.Unmarshal(b, m); err != nil {
		t.Fatalf("%s: proto.Unmarshal: %v", name, err)
	}
	return sample{name: name, b: b, m: m}
}

// pathsOf enumerates paths into m: every field, every list element and one
// past the end, every map key and a missing one, recursing into messages.
func pathsOf(m protoreflect.Message, prefix string, depth int, out *[]string) {
	fds := m.Descriptor().Fields()
	for i := range fds.Len() {
		fd := fds.Get(i)
		p := join(prefix, string(fd.Name()))
		*out = append(*out, p)
		switch {
		case fd.IsList():
			l := m.Get(fd).List()
			for j := 0; j <= l.Len(); j++ {
				ep := fmt.Sprintf("%s[%d]", p, j)
				*out = append(*out, ep)
				if fd.Message() != nil && j < l.Len() && depth < 4 {
					pathsOf(l.Get(j).Message(), ep, depth+1, out)
				}
			}
		case fd.IsMap():
			m.Get(fd).Map().Range(func(k protoreflect.MapKey, v protoreflect.Value) bool {
				kp := p + "[" + keyText(k) + "]"
				*out = append(*out, kp)
				if fd.MapValue().Message() != nil && depth < 4 {
					pathsOf(v.Message(), kp, depth+1, out)
				}
				return true
			})
			*out = append(*out, p+"["+missingKey(fd.MapKey())+"]")
		case fd.Message() != nil && depth < 4 && m.Has(fd):
			pathsOf(m.Get(fd).Message(), p, depth+1, out)
		}
	}
}

func join(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

func keyText(k protoreflect.MapKey) string {
	if s, ok := k.Interface().(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprint(k.Interface())
}

func missingKey(fd protoreflect.FieldDescriptor) string {
	switch fd.Kind() {
	case protoreflect.StringKind:
		return `"no such key"`
	case protoreflect.BoolKind:
		return "true"
	}
	return "424242"
}

// truth reads path p from m the protobuf-go way.
func truth(m protoreflect.Message, p string) (protoreflect.Value, protoreflect.FieldDescriptor, bool) {
	path, err := dynamic.ParsePath(p)
	if err != nil {
		panic(err)
	}
	var v protoreflect.Value
	var fd protoreflect.FieldDescriptor
	cur := m
	has := true
	for i := 0; i < len(path); i++ {
		fd = cur.Descriptor().Fields().ByName(protoreflect.Name(path[i].Name))
		v, has = cur.Get(fd), cur.Has(fd)
		if i+1 < len(path) && path[i+1].Kind != dynamic.StepField {
			i++
			var ok bool
			v, ok = indexed(v, fd, path[i])
			if fd.IsMap() {
				fd = fd.MapValue()
			}
			if !ok {
				return protoreflect.Value{}, fd, false
			}
			has = true
		}
		if i+1 < len(path) {
			cur = v.Message()
		}
	}
	return v, fd, has
}

func indexed(v protoreflect.Value, fd protoreflect.FieldDescriptor, s dynamic.Step) (protoreflect.Value, bool) {
	if fd.IsList() {
		if s.Index >= v.List().Len() {
			return protoreflect.Value{}, false
		}
		return v.List().Get(s.Index), true
	}
	k := mapKey(fd.MapKey(), s)
	if !v.Map().Has(k) {
		return protoreflect.Value{}, false
	}
	return v.Map().Get(k), true
}

// mapKey converts a parsed step to a key of fd's kind.
func mapKey(fd protoreflect.FieldDescriptor, s dynamic.Step) protoreflect.MapKey {
	txt := s.Key.String()
	switch fd.Kind() {
	case protoreflect.StringKind:
		var str string
		fmt.Sscanf(txt, "%q", &str)
		return protoreflect.ValueOfString(str).MapKey()
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(txt == "true").MapKey()
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		var i int32
		fmt.Sscan(txt, &i)
		return protoreflect.ValueOfInt32(i).MapKey()
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		var i int64
		fmt.Sscan(txt, &i)
		return protoreflect.ValueOfInt64(i).MapKey()
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		var u uint32
		fmt.Sscan(txt, &u)
		return protoreflect.ValueOfUint32(u).MapKey()
	}
	var u uint64
	fmt.Sscan(txt, &u)
	return protoreflect.ValueOfUint64(u).MapKey()
}

// checkElem holds e against protobuf-go's value want of field fd.
func checkElem(t *testing.T, p string, e dynamic.Elem, want protoreflect.Value, fd protoreflect.FieldDescriptor, present bool) {
	t.Helper()
	switch {
	case e.IsList():
		checkList(t, p, e.List(), want.List())
	case e.IsMap():
		checkMap(t, p, e.Map(), want.Map(), fd)
	case e.IsMessage():
		got := dynamicpb.NewMessage(fd.Message())
		if err := proto.Unmarshal(e.Message().Bytes(), got); err != nil {
			t.Fatalf("%s: unmarshal of Get's bytes: %v", p, err)
		}
		var w protoreflect.Message = dynamicpb.NewMessage(fd.Message())
		if present {
			w = want.Message()
		}
		if !sameMessage(got, w.Interface()) {
			t.Fatalf("%s: message %v, want %v", p, got, w)
		}
	default:
		if !present {
			want = fd.Default()
			if fd.IsList() || fd.ContainingMessage().IsMapEntry() {
				want = zeroScalar(fd)
			}
		}
		if !sameScalar(e.ProtoValue(), want) {
			t.Fatalf("%s: got %v, want %v", p, e.ProtoValue(), want)
		}
	}
}

// zeroScalar returns the zero value of one element of fd.
func zeroScalar(fd protoreflect.FieldDescriptor) protoreflect.Value {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(false)
	case protoreflect.EnumKind:
		return protoreflect.ValueOfEnum(0)
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return protoreflect.ValueOfInt32(0)
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return protoreflect.ValueOfInt64(0)
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return protoreflect.ValueOfUint32(0)
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return protoreflect.ValueOfUint64(0)
	case protoreflect.FloatKind:
		return protoreflect.ValueOfFloat32(0)
	case protoreflect.DoubleKind:
		return protoreflect.ValueOfFloat64(0)
	case protoreflect.StringKind:
		return protoreflect.ValueOfString("")
	}
	return protoreflect.ValueOfBytes(nil)
}

func sameScalar(a, b protoreflect.Value) bool {
	switch x := a.Interface().(type) {
	case []byte:
		return bytes.Equal(x, b.Bytes())
	case float32:
		return math.Float32bits(x) == math.Float32bits(float32(b.Float()))
	case float64:
		return math.Float64bits(x) == math.Float64bits(b.Float())
	}
	return a.Interface() == b.Interface()
}

func checkList(t *testing.T, p string, l dynamic.List, want protoreflect.List) {
	t.Helper()
	n, err := l.Len()
	if err != nil || n != want.Len() {
		t.Fatalf("%s: Len = %d, %v; want %d", p, n, err, want.Len())
	}
	err = l.Range(func(i int, e dynamic.Elem) bool {
		checkElem(t, fmt.Sprintf("%s[%d]", p, i), e, want.Get(i), l.Field().Desc, true)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
}

func checkMap(t *testing.T, p string, m dynamic.Map, want protoreflect.Map, fd protoreflect.FieldDescriptor) {
	t.Helper()
	n := 0
	err := m.Range(func(k, v dynamic.Elem) bool {
		n++
		mk := k.ProtoValue().MapKey()
		if !want.Has(mk) {
			t.Fatalf("%s: key %v not in protobuf-go's map", p, mk)
		}
		checkElem(t, p+"[]", v, want.Get(mk), fd.MapValue(), true)
		return true
	})
	if err != nil || n != want.Len() {
		t.Fatalf("%s: Range saw %d entries, %v; want %d", p, n, err, want.Len())
	}
}

func TestGetDifferential(t *testing.T) {
	for _, s := range corpus(t, 60) {
		var paths []string
		pathsOf(s.m, "", 0, &paths)
		v := dynamic.NewValue(dynamic.TypeOf(s.m.Descriptor()), s.b)
		for _, p := range paths {
			path, err := dynamic.ParsePath(p)
			if err != nil {
				t.Fatalf("%s: ParsePath(%q): %v", s.name, p, err)
			}
			e, err := v.Get(path)
			if err != nil {
				t.Fatalf("%s: Get(%q): %v", s.name, p, err)
			}
			want, fd, present := truth(s.m, p)
			if e.Exists() != present && !fd.IsList() && !fd.IsMap() && fd.HasPresence() {
				t.Fatalf("%s: %s: Exists = %v, protobuf-go has it %v", s.name, p, e.Exists(), present)
			}
			checkElem(t, s.name+": "+p, e, want, fd, present)
		}
	}
}

// sameMessage is proto.Equal that treats NaNs with the same bits as equal:
// failing proto.Equal, it compares deterministic encodings of a and of b
// converted to a's Go type.
func sameMessage(a, b proto.Message) bool {
	if proto.Equal(a, b) {
		return true
	}
	opts := proto.MarshalOptions{Deterministic: true}
	c := a.ProtoReflect().New().Interface()
	if by, err := opts.Marshal(b); err != nil || proto.Unmarshal(by, c) != nil {
		return false
	}
	x, err1 := opts.Marshal(a)
	y, err2 := opts.Marshal(c)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}
