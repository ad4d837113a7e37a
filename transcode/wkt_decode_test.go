package transcode

import (
	"strings"
	"testing"

	"github.com/rpckit/rpckit/dynamic"
	fixturev1 "github.com/rpckit/rpckit/internal/gen/rpckit/fixture/v1"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/known/durationpb"
)

func TestUnmarshalTimestamp(t *testing.T) {
	runDecCases(t, decKnown, []decCase{
		{in: `{"timestamp":"1970-01-01T00:00:00Z"}`},
		{in: `{"timestamp":"2024-02-29T23:59:59.123456789+01:30","rTimestamp":["0001-01-01T00:00:00Z","9999-12-31T23:59:59.999999999Z"]}`},
		{in: `{"timestamp":"2024-01-01T00:00:00.1-00:00"}`},
		{in: `{"timestamp":"2024-01-01t00:00:00z"}`, err: "invalid google.protobuf.Timestamp value"},
		{in: `{"timestamp":"2024-01-01T00:00:00"}`, err: "invalid google.protobuf.Timestamp value"},
		{in: `{"timestamp":"2024-02-30T00:00:00Z"}`, err: "invalid google.protobuf.Timestamp value"},
		{in: `{"timestamp":"0000-12-31T23:59:59Z"}`, err: "out of range"},
		{in: `{"timestamp":"9999-12-31T23:59:59-01:00"}`, err: "out of range"},
		{in: `{"timestamp":"2024-01-01T00:00:00.1234567890Z"}`, err: "invalid google.protobuf.Timestamp value"},
		{in: `{"timestamp":1}`, err: "unexpected token 1"},
		{in: `{"timestamp":null}`},
		{in: `{"rTimestamp":[null]}`, err: "unexpected token null"},
	})
}

func TestUnmarshalDuration(t *testing.T) {
	runDecCases(t, decKnown, []decCase{
		{in: `{"duration":"1.5s"}`},
		{in: `{"duration":"-0.5s","rDuration":["0s","1s","-1.000000001s","+2.s",".5s","315576000000s","-315576000000.999999999s"]}`},
		{in: `{"duration":"1.0000000001s"}`, err: "invalid google.protobuf.Duration value"},
		{in: `{"duration":"315576000001s"}`, err: "out of range"},
		{in: `{"duration":"1"}`, err: "invalid google.protobuf.Duration"},
		{in: `{"duration":"s"}`, err: "invalid google.protobuf.Duration"},
		{in: `{"duration":"01s"}`, err: "invalid google.protobuf.Duration"},
		{in: `{"duration":"1e3s"}`, err: "invalid google.protobuf.Duration"},
		{in: `{"duration":"-s"}`, err: "invalid google.protobuf.Duration"},
		{in: `{"duration":"99999999999999999999s"}`, err: "invalid google.protobuf.Duration"},
		{in: `{"duration":1.5}`, err: "unexpected token 1.5"},
	})
}

func TestUnmarshalFieldMask(t *testing.T) {
	runDecCases(t, decKnown, []decCase{
		{in: `{"fieldMask":"a.b,cD,fooBarBaz.x1"}`},
		{in: `{"fieldMask":""}`},
		{in: `{"fieldMask":"  a,b  "}`},
		{in: `{"fieldMask":"a, b"}`, err: `invalid path: " b"`},
		{in: `{"fieldMask":"a_b"}`, err: `invalid path: "a_b"`},
		{in: `{"fieldMask":"a,,b"}`, err: "invalid path"},
		{in: `{"fieldMask":"a,"}`, err: "invalid path"},
		{in: `{"fieldMask":"1a"}`, err: "invalid path"},
		{in: `{"fieldMask":"a..b"}`, err: "invalid path"},
		{in: `{"fieldMask":"é"}`, err: "invalid path"},
		{in: `{"rFieldMask":["a","bC",""],"mFieldMask":{"k":"x.yZ"}}`},
	})
}

func TestUnmarshalStructValue(t *testing.T) {
	runDecCases(t, decKnown, []decCase{
		{in: `{"struct":{"a":1,"b":"x","c":null,"d":true,"e":[1,[2],{}],"f":{"g":{"h":"NaN"}}}}`},
		{in: `{"struct":{}, "listValue":[], "value":{}}`},
		{in: `{"value":null,"rValue":[null,1,"a",false,[],{}],"mValue":{"k":null}}`},
		{in: `{"value":-0.0}`},
		{in: `{"value":1e400}`, err: "invalid google.protobuf.Value: 1e400"},
		{in: `{"value":"Infinity"}`},
		{in: `{"value":nul}`, err: "invalid value nul"},
		{in: `{"value":]}`, err: "unexpected token ]"},
		{in: `{"struct":{"a":1,"a":2}}`, err: `duplicate map key "a"`},
		{in: `{"struct":[]}`, err: "unexpected token ["},
		{in: `{"listValue":{}}`, err: "unexpected token {"},
		{in: `{"listValue":[1,]}`, err: "unexpected token ]"},
		{in: `{"struct":null,"listValue":null}`},
		{in: `{"pValue":null,"pString":"x"}`, err: "already set"},
		{in: `{"pValue":null}`},
		{in: `{"rValue":null}`, err: "unexpected token null"},
		{in: `{"rNullValue":null}`, err: "unexpected token null"},
		{in: `{"mValue":null,"mNullValue":null,"rStruct":null}`},
	})
}

func TestUnmarshalWrappersNullEmpty(t *testing.T) {
	runDecCases(t, decKnown, []decCase{
		{in: `{"boolValue":false,"int32Value":0,"int64Value":"0","uint32Value":0,"uint64Value":"0","floatValue":0,"doubleValue":-0,"stringValue":"","bytesValue":""}`},
		{in: `{"boolValue":true,"int32Value":-1,"int64Value":"1e3","uint32Value":"7","uint64Value":18446744073709551615,"floatValue":"NaN","doubleValue":1.5,"stringValue":"s","bytesValue":"AQ=="}`},
		{in: `{"rInt32Value":[1,0],"mInt32Value":{"1":0},"mBytesValue":{"true":"AA=="},"pStringValue":""}`},
		{in: `{"int32Value":null,"boolValue":null}`},
		{in: `{"rInt32Value":[null]}`, err: "invalid int32 null"},
		{in: `{"int32Value":{"value":1}}`, err: "invalid int32 {"},
		{in: `{"nullValue":null,"oNullValue":null,"rNullValue":[null,0,"NULL_VALUE"],"mNullValue":{"a":null},"pNullValue":null}`},
		{in: `{"nullValue":"NULL_VALUE","oNullValue":0}`},
		{in: `{"nullValue":1}`},
		{in: `{"nullValue":"NOPE"}`, err: "invalid value for enum"},
		{in: `{"empty":{},"rEmpty":[{},{}],"mEmpty":{"a":{}}}`},
		{in: `{"empty":{"a":1}}`, err: `unknown field "a"`},
		{in: `{"empty":{"a":{"b":[1]}}}`, opts: discard},
		{in: `{"empty":{"[rpckit.fixture.v1.ext_int]":1}}`, opts: discard},
		{in: `{"empty":[]}`, err: "unexpected token ["},
	})
}

const (
	anyLeaf     = `"@type":"type.googleapis.com/rpckit.fixture.v1.Leaf"`
	anyDuration = `"@type":"type.googleapis.com/google.protobuf.Duration"`
)

func TestUnmarshalAny(t *testing.T) {
	runDecCases(t, decKnown, []decCase{
		{in: `{"any":{` + anyLeaf + `,"name":"x","id":"5","tags":{"b":1,"a":2},"values":[3,1]}}`},
		{in: `{"any":{"name":"x","tags":{"b":1,"a":2},` + anyLeaf + `}}`},
		{in: `{"any":{"name":"x",` + anyLeaf + `,"next":{"id":1}}}`},
		{in: `{"any":{}}`},
		{in: `{"any":{` + anyLeaf + `}}`},
		{in: `{"any":{"name":"x"}}`, err: `missing "@type" field`},
		{in: `{"any":{"name":"x"}}`, opts: discard},
		{in: `{"any":{"name":"x",]}}`, opts: discard, err: "unexpected token ]"},
		{in: `{"any":{` + anyLeaf + `,` + anyLeaf + `}}`, err: `duplicate "@type" field`},
		{in: `{"any":{"@type":1}}`, err: "@type field value is not a string"},
		{in: `{"any":{"@type":""}}`, err: "@type field contains empty value"},
		{in: `{"any":{"@type":"type.googleapis.com/no.Such"}}`, err: "unable to resolve"},
		{in: `{"any":{"@type":"nothing"}}`, err: "unable to resolve"},
		{in: `{"any":{` + anyLeaf + `,"nope":1}}`, err: `unknown field "nope"`},
		{in: `{"any":{` + anyLeaf + `,"nope":1}}`, opts: discard},
		{in: `{"any":{` + anyLeaf + `,"id":"x"}}`, err: `field "any.id": invalid int64 "x"`},
		{in: `{"any":{` + anyDuration + `,"value":"1.5s"}}`},
		{in: `{"any":{"value":"1.5s",` + anyDuration + `}}`},
		{in: `{"any":{` + anyDuration + `}}`, err: `missing "value" field`},
		{in: `{"any":{` + anyDuration + `,"value":"1s","value":"2s"}}`, err: `duplicate "value" field`},
		{in: `{"any":{` + anyDuration + `,"value":"1s","x":1}}`, err: `unknown field "x"`},
		{in: `{"any":{` + anyDuration + `,"value":"1s","x":1}}`, opts: discard},
		{in: `{"any":{` + anyDuration + `,"value":"1x"}}`, err: "invalid google.protobuf.Duration value"},
		{in: `{"any":{"@type":"type.googleapis.com/google.protobuf.Empty"}}`},
		{in: `{"any":{"@type":"type.googleapis.com/google.protobuf.Empty","value":{}}}`},
		{in: `{"any":{"@type":"type.googleapis.com/google.protobuf.Empty","value":{"a":1}}}`, err: `unknown field "a"`},
		{in: `{"any":{"@type":"type.googleapis.com/google.protobuf.Struct","value":{"b":1,"a":{"d":2,"c":3}}}}`},
		{in: `{"any":{"@type":"type.googleapis.com/google.protobuf.Value","value":null}}`},
		{in: `{"any":{"@type":"type.googleapis.com/google.protobuf.Int32Value","value":0}}`},
		{in: `{"any":{"@type":"type.googleapis.com/google.protobuf.Timestamp","value":null}}`, err: "unexpected token null"},
		{in: `{"any":{"@type":"type.googleapis.com/google.protobuf.Any","value":{` + anyLeaf + `,"id":"7"}}}`},
		{in: `{"any":{"@type":"type.googleapis.com/rpckit.fixture.v1.Rich","mString":{"z":"1","a":"2"},"child":{"mInt32":{"2":"","1":""}}}}`},
		{in: `{"any":{"@type":"type.googleapis.com/rpckit.fixture.v1.Known","any":{` + anyLeaf + `,"id":"1"}}}`},
		{in: `{"any":{"@type":"type.googleapis.com/rpckit.fixture.v1.Legacy"}}`},
		{in: `{"any":{"@type":"type.googleapis.com/rpckit.fixture.v1.Leaf","@type":1}}`, err: `duplicate "@type" field`},
		{in: `{"any":{"\u0040type":"type.googleapis.com/rpckit.fixture.v1.Leaf","id":1}}`},
		{in: `{"any":[]}`, err: "unexpected token ["},
		{in: `{"rAny":[{` + anyLeaf + `},{}],"mAny":{"k":{` + anyDuration + `,"value":"0s"}},"pAny":{}}`},
		{in: `{"any":{` + anyLeaf + `,"@type":"x"}}`, err: `duplicate "@type" field`},
		{in: `{"any":{` + anyLeaf + `,"name":"a","name":"b"}}`, err: "duplicate field"},
	})
}

// TestUnmarshalResolver checks that Any types and extensions come from the
// Resolver of the options.
func TestUnmarshalResolver(t *testing.T) {
	var types protoregistry.Types
	if err := types.RegisterMessage((&durationpb.Duration{}).ProtoReflect().Type()); err != nil {
		t.Fatal(err)
	}
	o := UnmarshalOptions{Resolver: &types}
	known := dynamic.TypeOf(decKnown)
	if _, err := o.Unmarshal(known, []byte(`{"any":{`+anyDuration+`,"value":"1s"}}`)); err != nil {
		t.Errorf("Duration in Any: %v", err)
	}
	if _, err := o.Unmarshal(known, []byte(`{"any":{`+anyLeaf+`}}`)); err == nil || !strings.Contains(err.Error(), "unable to resolve") {
		t.Errorf("Leaf in Any with a resolver without Leaf: %v", err)
	}
	legacy := dynamic.TypeOf(decLegacy)
	ext := []byte(`{"[rpckit.fixture.v1.ext_int]":1}`)
	if _, err := o.Unmarshal(legacy, ext); err == nil || !strings.Contains(err.Error(), "unknown field") {
		t.Errorf("extension the resolver lacks: %v", err)
	}
	if err := types.RegisterExtension(fixturev1.E_ExtInt); err != nil {
		t.Fatal(err)
	}
	if _, err := o.Unmarshal(legacy, ext); err != nil {
		t.Errorf("extension the resolver has: %v", err)
	}
}
