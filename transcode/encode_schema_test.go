package transcode

import (
	"strings"
	"testing"

	"github.com/rpckit/rpckit/dynamic"
	fixturev1 "github.com/rpckit/rpckit/internal/gen/rpckit/fixture/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
)

// shuffledDescriptor is a proto3 message whose fields are declared out of
// number order (protojson prints them in declaration order), with a oneof
// and a nested message.
func shuffledDescriptor(t *testing.T) protoreflect.MessageDescriptor {
	t.Helper()
	opt := descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL
	rep := descriptorpb.FieldDescriptorProto_LABEL_REPEATED
	typ := func(t descriptorpb.FieldDescriptorProto_Type) *descriptorpb.FieldDescriptorProto_Type { return &t }
	field := func(name string, num int32, label descriptorpb.FieldDescriptorProto_Label, t descriptorpb.FieldDescriptorProto_Type) *descriptorpb.FieldDescriptorProto {
		return &descriptorpb.FieldDescriptorProto{Name: proto.String(name), Number: proto.Int32(num), Label: &label, Type: typ(t)}
	}
	inOneof := func(f *descriptorpb.FieldDescriptorProto) *descriptorpb.FieldDescriptorProto {
		f.OneofIndex = proto.Int32(0)
		return f
	}
	child := field("child", 2, opt, descriptorpb.FieldDescriptorProto_TYPE_MESSAGE)
	child.TypeName = proto.String(".shuffled.M")
	fd := &descriptorpb.FileDescriptorProto{
		Name: proto.String("shuffled.proto"), Package: proto.String("shuffled"), Syntax: proto.String("proto3"),
		MessageType: []*descriptorpb.DescriptorProto{{
			Name: proto.String("M"),
			Field: []*descriptorpb.FieldDescriptorProto{
				field("zeta", 9, opt, descriptorpb.FieldDescriptorProto_TYPE_STRING),
				field("alpha", 1, opt, descriptorpb.FieldDescriptorProto_TYPE_INT64),
				child,
				field("nums", 5, rep, descriptorpb.FieldDescriptorProto_TYPE_SINT32),
				inOneof(field("pick_b", 8, opt, descriptorpb.FieldDescriptorProto_TYPE_BOOL)),
				inOneof(field("pick_a", 3, opt, descriptorpb.FieldDescriptorProto_TYPE_DOUBLE)),
			},
			OneofDecl: []*descriptorpb.OneofDescriptorProto{{Name: proto.String("pick")}},
		}},
	}
	f, err := protodesc.NewFile(fd, nil)
	if err != nil {
		t.Fatal(err)
	}
	return f.Messages().Get(0)
}

// TestMarshalDeclarationOrder: fields print in declaration order, whatever
// their numbers and the order of the records.
func TestMarshalDeclarationOrder(t *testing.T) {
	md := shuffledDescriptor(t)
	m := dynamicpb.NewMessage(md)
	set := func(m *dynamicpb.Message, name string, v protoreflect.Value) {
		m.Set(md.Fields().ByName(protoreflect.Name(name)), v)
	}
	set(m, "zeta", protoreflect.ValueOfString("z"))
	set(m, "alpha", protoreflect.ValueOfInt64(-7))
	inner := dynamicpb.NewMessage(md)
	set(inner, "pick_b", protoreflect.ValueOfBool(true))
	set(m, "child", protoreflect.ValueOfMessage(inner))
	l := m.Mutable(md.Fields().ByName("nums")).List()
	l.Append(protoreflect.ValueOfInt32(-1))
	set(m, "pick_a", protoreflect.ValueOfFloat64(2.5))
	wire, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range optionSets() {
		checkAgainstOracle(t, optString(o), md, wire, o)
	}
	got, err := Marshal(dynamic.TypeOf(md), wire)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"zeta":"z","alpha":"-7","child":{"pickB":true},"nums":[-1],"pickA":2.5}`; string(got) != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestMarshalResolver: Any types come from the options' Resolver.
func TestMarshalResolver(t *testing.T) {
	var reg protoregistry.Types
	if err := reg.RegisterMessage((&fixturev1.Leaf{}).ProtoReflect().Type()); err != nil {
		t.Fatal(err)
	}
	leaf := mustWire(t, &fixturev1.Known{Any: mustAny(t, &fixturev1.Leaf{Name: "x"})})
	rich := mustWire(t, &fixturev1.Known{Any: mustAny(t, &fixturev1.Rich{FInt32: 1})})
	o := MarshalOptions{Resolver: &reg}
	typ := typeOf(&fixturev1.Known{})
	got, err := o.Marshal(typ, leaf)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := protojson.MarshalOptions{Resolver: &reg}.Marshal(&fixturev1.Known{Any: mustAny(t, &fixturev1.Leaf{Name: "x"})})
	sameJSON(t, "leaf", got, want, "")
	if _, err := o.Marshal(typ, rich); err == nil || !strings.Contains(err.Error(), "unable to resolve") {
		t.Errorf("Rich through a registry without it: %v", err)
	}
	if _, err := Marshal(typ, rich); err != nil {
		t.Errorf("Rich through the global registry: %v", err)
	}
}
