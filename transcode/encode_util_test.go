package transcode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/rpckit/rpckit/dynamic"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// optionSets are the option combinations the differential tests run: every
// combination of the three switches, compact and with two indents.
func optionSets() []MarshalOptions {
	var sets []MarshalOptions
	for i := range 8 {
		for _, indent := range []string{"", "  ", "\t"} {
			sets = append(sets, MarshalOptions{
				EmitUnpopulated: i&1 != 0,
				UseProtoNames:   i&2 != 0,
				UseEnumNumbers:  i&4 != 0,
				Indent:          indent,
			})
		}
	}
	return sets
}

func optString(o MarshalOptions) string {
	return fmt.Sprintf("unpop=%v proto=%v enumnum=%v indent=%q", o.EmitUnpopulated, o.UseProtoNames, o.UseEnumNumbers, o.Indent)
}

// protojsonOptions returns the protojson options that o mirrors.
func protojsonOptions(o MarshalOptions) protojson.MarshalOptions {
	return protojson.MarshalOptions{
		EmitUnpopulated: o.EmitUnpopulated,
		UseProtoNames:   o.UseProtoNames,
		UseEnumNumbers:  o.UseEnumNumbers,
		Indent:          o.Indent,
	}
}

func typeOf(m proto.Message) *dynamic.Type { return dynamic.TypeOf(m.ProtoReflect().Descriptor()) }

// oracle parses wire into a message of md and prints it with protojson;
// parseErr is set when proto.Unmarshal fails. The message is of the
// generated type when there is one: protobuf-go's generic parser, which
// dynamicpb uses, panics on a map entry whose key repeats with a wrong
// wire type.
func oracle(md protoreflect.MessageDescriptor, wire []byte, o MarshalOptions) (out []byte, parseErr, printErr error) {
	var m proto.Message = dynamicpb.NewMessage(md)
	if mt, err := protoregistry.GlobalTypes.FindMessageByName(md.FullName()); err == nil {
		m = mt.New().Interface()
	}
	if err := proto.Unmarshal(wire, m); err != nil {
		return nil, err, nil
	}
	out, err := protojsonOptions(o).Marshal(m)
	return out, nil, err
}

// canonical removes protojson's deliberate whitespace noise: compact JSON
// as is, indented JSON re-indented the standard way.
func canonical(b []byte, indent string) ([]byte, error) {
	var c bytes.Buffer
	if err := json.Compact(&c, b); err != nil {
		return nil, err
	}
	if indent == "" {
		return c.Bytes(), nil
	}
	var ind bytes.Buffer
	if err := json.Indent(&ind, c.Bytes(), "", indent); err != nil {
		return nil, err
	}
	return ind.Bytes(), nil
}

// semantic parses JSON keeping numbers as their text.
func semantic(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

// sameJSON fails the test unless got is the JSON protojson printed (want):
// semantically equal, and equal byte for byte once protojson's random
// spaces are normalised away (same member order, same number forms, same
// escapes, same layout).
func sameJSON(t testing.TB, what string, got, want []byte, indent string) {
	t.Helper()
	gv, err := semantic(got)
	if err != nil {
		t.Fatalf("%s: our output is not JSON: %v\n%s", what, err, got)
	}
	wv, err := semantic(want)
	if err != nil {
		t.Fatalf("%s: protojson output is not JSON: %v\n%s", what, err, want)
	}
	if !reflect.DeepEqual(gv, wv) {
		t.Fatalf("%s: JSON differs\n got: %s\nwant: %s", what, got, want)
	}
	cw, _ := canonical(want, indent)
	if !bytes.Equal(got, cw) {
		t.Fatalf("%s: same value, different text\n got: %s\nwant: %s", what, got, cw)
	}
}

// checkAgainstOracle converts wire with o and holds the result against
// protojson over dynamicpb: equal output, or an error from both.
func checkAgainstOracle(t testing.TB, what string, md protoreflect.MessageDescriptor, wire []byte, o MarshalOptions) {
	t.Helper()
	want, perr, merr := oracle(md, wire, o)
	got, err := o.Marshal(dynamic.TypeOf(md), wire)
	sameInDirtyMemory(t, what, md, wire, o, got, err)
	switch {
	case perr != nil || merr != nil:
		if err == nil {
			t.Fatalf("%s: protojson fails (parse: %v, print: %v), we print\n%s", what, perr, merr, got)
		}
		if _, ok := err.(*Error); !ok {
			t.Fatalf("%s: error %T, want *Error: %v", what, err, err)
		}
	case err != nil:
		t.Fatalf("%s: %v\nprotojson: %s", what, err, want)
	default:
		sameJSON(t, what, got, want, o.Indent)
	}
}

// sameInDirtyMemory checks that MarshalAppend, after a byte of its own and
// into capacity full of bytes a result never has, prints what Marshal
// printed: Marshal may print into memory that holds old bytes, so every
// byte of the result must be written before it is read.
func sameInDirtyMemory(t testing.TB, what string, md protoreflect.MessageDescriptor, wire []byte, o MarshalOptions, got []byte, err error) {
	t.Helper()
	dirty := bytes.Repeat([]byte{0xfe}, len(got)+64)
	dirty[0] = '>'
	again, err2 := o.MarshalAppend(dirty[:1], dynamic.TypeOf(md), wire)
	if (err == nil) != (err2 == nil) {
		t.Fatalf("%s: Marshal gives error %v, MarshalAppend %v", what, err, err2)
	}
	if err == nil && (again[0] != '>' || !bytes.Equal(again[1:], got)) {
		t.Fatalf("%s: MarshalAppend into dirty memory prints\n%q\nMarshal\n%q", what, again, got)
	}
}

// protojsonString is a string as protojson prints it, or its error.
func protojsonString(s string) (string, error) {
	b, err := protojson.Marshal(wrapperspb.String(s))
	return string(b), err
}
