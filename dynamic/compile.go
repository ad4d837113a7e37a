package dynamic

import (
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// compiler compiles a graph of messages; done holds the Types of this
// compilation, so that recursive messages resolve to themselves.
type compiler struct {
	cache *Cache
	done  map[protoreflect.MessageDescriptor]*Type
	enums map[protoreflect.EnumDescriptor]*Enum
}

func (k *compiler) compile(md protoreflect.MessageDescriptor) *Type {
	if t, ok := k.cache.types.Load(md); ok {
		return t.(*Type)
	}
	if t := k.done[md]; t != nil {
		return t
	}
	t := &Type{
		Desc:     md,
		fullName: md.FullName(),
		cache:    k.cache,
		MapEntry: md.IsMapEntry(),
		byName:   map[string]*Field{},
		byJSON:   map[string]*Field{},
	}
	k.done[md] = t
	k.oneofs(t)
	fds := md.Fields()
	for i := range fds.Len() {
		k.addField(t, k.field(t, fds.Get(i)))
	}
	t.buildTags()
	return t
}

func (k *compiler) oneofs(t *Type) {
	ods := t.Desc.Oneofs()
	for i := range ods.Len() {
		if od := ods.Get(i); !od.IsSynthetic() {
			t.Oneofs = append(t.Oneofs, &Oneof{Name: string(od.Name()), Index: len(t.Oneofs)})
		}
	}
}

func (k *compiler) addField(t *Type, f *Field) {
	t.Fields = append(t.Fields, f)
	if f.Required {
		t.Required = append(t.Required, f)
	}
	t.byName[f.Name] = f
	t.byJSON[f.JSONName] = f
	if f.Num < denseLimit {
		for int(f.Num) >= len(t.dense) {
			t.dense = append(t.dense, nil)
		}
		t.dense[f.Num] = f
	} else {
		if t.sparse == nil {
			t.sparse = map[protowire.Number]*Field{}
		}
		t.sparse[f.Num] = f
	}
	if f.Oneof >= 0 {
		o := t.Oneofs[f.Oneof]
		o.Fields = append(o.Fields, f)
	}
}

func (k *compiler) field(t *Type, fd protoreflect.FieldDescriptor) *Field {
	f := &Field{
		Desc:        fd,
		Num:         fd.Number(),
		Name:        string(fd.Name()),
		JSONName:    fd.JSONName(),
		Kind:        fd.Kind(),
		WireType:    WireTypeOf(fd.Kind()),
		List:        fd.IsList(),
		Map:         fd.IsMap(),
		Packed:      fd.IsPacked(),
		Oneof:       oneofIndex(t, fd),
		HasPresence: fd.HasPresence(),
		Required:    fd.Cardinality() == protoreflect.Required,
		UTF8:        enforceUTF8(fd),
	}
	f.Packable = f.List && f.WireType != protowire.BytesType && f.WireType != protowire.StartGroupType
	if !f.List && !f.Map {
		f.Default = fd.Default()
	}
	if ed := fd.Enum(); ed != nil {
		f.Enum = k.enum(ed)
	}
	if md := fd.Message(); md != nil {
		f.Message = k.compile(md)
	}
	if f.Map {
		f.MapKey = f.Message.FieldByNumber(1)
		f.MapValue = f.Message.FieldByNumber(2)
	}
	return f
}

func oneofIndex(t *Type, fd protoreflect.FieldDescriptor) int {
	od := fd.ContainingOneof()
	if od == nil || od.IsSynthetic() {
		return -1
	}
	for i, o := range t.Oneofs {
		if o.Name == string(od.Name()) {
			return i
		}
	}
	return -1
}

// enforceUTF8 mirrors protobuf-go: proto3 strings and editions strings with
// utf8_validation = VERIFY must be valid UTF-8.
func enforceUTF8(fd protoreflect.FieldDescriptor) bool {
	if fd.Kind() != protoreflect.StringKind {
		return false
	}
	if fd.Syntax() == protoreflect.Editions {
		if e, ok := fd.(interface{ EnforceUTF8() bool }); ok {
			return e.EnforceUTF8()
		}
	}
	return fd.Syntax() == protoreflect.Proto3
}

func (k *compiler) enum(ed protoreflect.EnumDescriptor) *Enum {
	if e := k.enums[ed]; e != nil {
		return e
	}
	e := &Enum{Desc: ed, Closed: ed.IsClosed(), byNum: map[protoreflect.EnumNumber]string{}, byName: map[string]protoreflect.EnumNumber{}}
	vals := ed.Values()
	for i := range vals.Len() {
		v := vals.Get(i)
		n, name := v.Number(), string(v.Name())
		e.byName[name] = n
		if n >= 0 && n < denseLimit {
			for int(n) >= len(e.dense) {
				e.dense = append(e.dense, "")
			}
			if e.dense[n] == "" {
				e.dense[n] = name
			}
		} else if _, dup := e.byNum[n]; !dup {
			e.byNum[n] = name
		}
	}
	if k.enums == nil {
		k.enums = map[protoreflect.EnumDescriptor]*Enum{}
	}
	k.enums[ed] = e
	return e
}
