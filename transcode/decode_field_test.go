package transcode

import (
	"testing"

	"github.com/rpckit/rpckit/dynamic"
	fixturev1 "github.com/rpckit/rpckit/internal/gen/rpckit/fixture/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// A field's value alone gives the records the whole message would hold
// for it: appended one field at a time, the message protojson reads.
func TestUnmarshalFieldAppend(t *testing.T) {
	typ := dynamic.TypeOf(decRich)
	fields := []struct{ name, value string }{
		{"fInt64", `"-7"`}, {"fString", `"é"`}, {"fBool", `true`}, {"fInt32", `0`},
		{"rInt32", `[1,2,3]`}, {"child", `{"fInt32":5}`}, {"fBytes", `"AQID"`},
	}
	var wire []byte
	whole := "{"
	for i, fv := range fields {
		var err error
		wire, err = UnmarshalOptions{}.UnmarshalFieldAppend(wire, typ.FieldByJSONName(fv.name), []byte(fv.value))
		if err != nil {
			t.Fatalf("%s: %v", fv.name, err)
		}
		if i > 0 {
			whole += ","
		}
		whole += `"` + fv.name + `":` + fv.value
	}
	want, got := &fixturev1.Rich{}, &fixturev1.Rich{}
	if err := protojson.Unmarshal([]byte(whole+"}"), want); err != nil {
		t.Fatal(err)
	}
	if err := proto.Unmarshal(wire, got); err != nil || !proto.Equal(got, want) {
		t.Fatalf("got %v (%v), want %v", got, err, want)
	}
	for _, bad := range []struct{ name, value, err string }{
		{"fInt64", `"x"`, `transcode: line 1 col 1: invalid int64 "x"`},
		{"fInt32", `1 2`, `transcode: line 1 col 3: unexpected token 2`},
		{"rInt32", `[1,"y"]`, `transcode: line 1 col 4: field "[1]": invalid int32 "y"`},
	} {
		out, err := UnmarshalOptions{}.UnmarshalFieldAppend([]byte("x"), typ.FieldByJSONName(bad.name), []byte(bad.value))
		if err == nil || err.Error() != bad.err || string(out) != "x" {
			t.Errorf("%s=%s: %q, %v; want x and %s", bad.name, bad.value, out, err, bad.err)
		}
	}
}
