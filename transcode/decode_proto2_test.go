package transcode

import (
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
)

func TestUnmarshalProto2(t *testing.T) {
	runDecCases(t, decLegacy, []decCase{
		{in: `{"a":0,"s":"","e":"CLOSED_ZERO","d":0,"bs":"","flag":false}`},
		{in: `{"nums":[1,2],"packedNums":[3,-4],"packed_nums":[]}`, err: "duplicate field"},
		{in: `{"nums":[1,2],"packedNums":[3,-4]}`},
		{in: `{"e":7}`},
		{in: `{"item":{"id":1,"name":"x","inner":{"v":"2"}}}`},
		{in: `{"Item":{"id":1,"Inner":{"v":"2"}}}`},
		{in: `{"entry":[{"key":"a","value":"1"},{}]}`},
		{in: `{"Entry":[{"key":"b"}]}`},
		{in: `{"item":{},"Item":{}}`, err: "duplicate field"},
		{in: `{"iTem":{}}`, err: "unknown field"},
		{in: `{"child":{"child":{"a":1}},"children":{"k":{"s":"v"}}}`},
		{in: `{"pInt":1,"pStr":"x"}`, err: "already set"},
		{in: `{"[rpckit.fixture.v1.ext_int]":5,"[rpckit.fixture.v1.ext_str]":"x","[rpckit.fixture.v1.ext_nums]":[1,"2"]}`},
		{in: `{"[rpckit.fixture.v1.ext_int]":5,"[rpckit.fixture.v1.ext_int]":6}`, err: "duplicate field"},
		{in: `{"[rpckit.fixture.v1.ext_int]":"x"}`, err: `field "[rpckit.fixture.v1.ext_int]": invalid int32 "x"`},
		{in: `{"[rpckit.fixture.v1.nope]":1}`, err: `unknown field "[rpckit.fixture.v1.nope]"`},
		{in: `{"[rpckit.fixture.v1.nope]":1}`, opts: discard},
		{in: `{"[]":1}`, err: "unknown field"},
		{in: `{"child":{"[rpckit.fixture.v1.ext_nums]":["1"]}}`},
	})
	runDecCases(t, decRich, []decCase{
		{in: `{"[rpckit.fixture.v1.ext_int]":5}`, err: "cannot be extended"},
	})
}

// requiredDesc compiles, at run time, a proto2 message with required
// fields: Req { required int32 id = 1; optional Req next = 2;
// repeated Req list = 3; map<string, Req> byName = 4; required Inner inner = 5 }
// with Inner { required string name = 1 }.
func requiredDesc(t *testing.T) protoreflect.MessageDescriptor {
	t.Helper()
	req := descriptorpb.FieldDescriptorProto_LABEL_REQUIRED.Enum()
	opt := descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum()
	rep := descriptorpb.FieldDescriptorProto_LABEL_REPEATED.Enum()
	msg := descriptorpb.FieldDescriptorProto_TYPE_MESSAGE.Enum()
	field := func(name string, num int32, label *descriptorpb.FieldDescriptorProto_Label, typ descriptorpb.FieldDescriptorProto_Type, typeName string) *descriptorpb.FieldDescriptorProto {
		f := &descriptorpb.FieldDescriptorProto{Name: proto.String(name), Number: proto.Int32(num), Label: label, Type: typ.Enum()}
		if typeName != "" {
			f.TypeName = proto.String(typeName)
		}
		return f
	}
	fdp := &descriptorpb.FileDescriptorProto{
		Name:    proto.String("transcode_required_test.proto"),
		Package: proto.String("transcodetest"),
		Syntax:  proto.String("proto2"),
		MessageType: []*descriptorpb.DescriptorProto{{
			Name: proto.String("Req"),
			Field: []*descriptorpb.FieldDescriptorProto{
				field("id", 1, req, descriptorpb.FieldDescriptorProto_TYPE_INT32, ""),
				field("next", 2, opt, *msg, ".transcodetest.Req"),
				field("list", 3, rep, *msg, ".transcodetest.Req"),
				field("by_name", 4, rep, *msg, ".transcodetest.Req.ByNameEntry"),
				field("inner", 5, req, *msg, ".transcodetest.Inner"),
			},
			NestedType: []*descriptorpb.DescriptorProto{{
				Name: proto.String("ByNameEntry"),
				Field: []*descriptorpb.FieldDescriptorProto{
					field("key", 1, opt, descriptorpb.FieldDescriptorProto_TYPE_STRING, ""),
					field("value", 2, opt, *msg, ".transcodetest.Req"),
				},
				Options: &descriptorpb.MessageOptions{MapEntry: proto.Bool(true)},
			}},
		}, {
			Name:  proto.String("Inner"),
			Field: []*descriptorpb.FieldDescriptorProto{field("name", 1, req, descriptorpb.FieldDescriptorProto_TYPE_STRING, "")},
		}},
	}
	fd, err := protodesc.NewFile(fdp, nil)
	if err != nil {
		t.Fatal(err)
	}
	return fd.Messages().ByName("Req")
}

func TestUnmarshalRequired(t *testing.T) {
	md := requiredDesc(t)
	partial := UnmarshalOptions{AllowPartial: true}
	ok := `"id":1,"inner":{"name":"n"}`
	runDecCases(t, md, []decCase{
		{in: `{` + ok + `}`},
		{in: `{"inner":{"name":"n"}}`, err: "required field transcodetest.Req.id not set"},
		{in: `{"inner":{"name":"n"}}`, opts: partial},
		{in: `{"id":1}`, err: "required field transcodetest.Req.inner not set"},
		{in: `{"id":1,"inner":{}}`, err: `line 1 col 17: field "inner": required field transcodetest.Inner.name not set`},
		{in: `{"id":null,"inner":{"name":"n"}}`, err: "required field"},
		{in: `{` + ok + `,"next":{` + ok + `}}`},
		{in: `{` + ok + `,"next":{"id":2}}`, err: `field "next": required field`},
		{in: `{` + ok + `,"list":[{` + ok + `},{"inner":{"name":""}}]}`, err: `field "list[1]": required field transcodetest.Req.id`},
		{in: `{` + ok + `,"byName":{"a":{` + ok + `},"b":{}}}`, err: `field "byName[\"b\"]": required field`},
		{in: `{` + ok + `,"byName":{"b":{}}}`, opts: partial},
		{in: `{"id":1,"inner":{"name":"n"`, err: "unexpected end of input"},
	})
}
