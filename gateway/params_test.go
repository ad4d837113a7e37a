package gateway

import (
	"encoding/json"
	"testing"

	"github.com/rpckit/rpckit/dynamic"
	fixturev1 "github.com/rpckit/rpckit/internal/gen/rpckit/fixture/v1"
	"github.com/rpckit/rpckit/transcode"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// URL values bound to fields straight to wire records give the message
// the same fields in a JSON body give.
func TestParamsAsJSON(t *testing.T) {
	typ := dynamic.TypeOf((&fixturev1.Rich{}).ProtoReflect().Descriptor())
	set := [][]string{
		{"f_int64", "-3"}, {"fString", "a b"}, {"f_bool", "1"}, {"f_kind", "2"},
		{"r_int32", "1", "2"}, {"child.f_double", "1.5"}, {"child.child.f_string", "x"},
		{"c_leaf.name", "n"}, {"c_leaf.b", "9"}, {"child.c_int32", "4"},
	}
	const want = `{"fInt64":"-3","fString":"a b","fBool":true,"fKind":2,"rInt32":[1,2],` +
		`"child":{"fDouble":1.5,"child":{"fString":"x"},"cInt32":4},"cLeaf":{"name":"n","b":"9"}}`
	p := newParams(typ, transcode.UnmarshalOptions{})
	for _, s := range set {
		if err := p.set(s[0], s[1:]); err != nil {
			t.Fatalf("%s: %v", s[0], err)
		}
	}
	got, exp := &fixturev1.Rich{}, &fixturev1.Rich{}
	if err := protojson.Unmarshal([]byte(want), exp); err != nil {
		t.Fatal(err)
	}
	if err := proto.Unmarshal(p.wire, got); err != nil || !proto.Equal(got, exp) {
		t.Fatalf("got %v (%v), want %v", got, err, exp)
	}
	for _, bad := range []struct {
		set  [][]string
		want string
	}{
		{[][]string{{"c_int32", "1"}, {"c_string", "s"}}, `field "c_string": oneof rpckit.fixture.v1.Rich.choice is already set`},
		{[][]string{{"c_leaf.name", "1"}, {"c_kind", "1"}}, `field "c_kind": oneof rpckit.fixture.v1.Rich.choice is already set`},
		{[][]string{{"f_int32", "x"}}, `field "f_int32": transcode: line 1 col 1: invalid int32 "x"`},
		{[][]string{{"f_int32", "1", "2"}}, `field "f_int32": given 2 times but not repeated`},
		{[][]string{{"m_string", "1"}}, `field "m_string": map fields cannot be set from the URL`},
		{[][]string{{"r_leaf.name", "1"}}, `field "r_leaf.name": cannot set inside repeated field r_leaf`},
	} {
		p := newParams(typ, transcode.UnmarshalOptions{})
		var err error
		for _, s := range bad.set {
			if err = p.set(s[0], s[1:]); err != nil {
				break
			}
		}
		if err == nil || err.Error() != bad.want {
			t.Errorf("%v: error %v, want %s", bad.set, err, bad.want)
		}
	}
}

// appendJSONString writes what encoding/json reads back as the string
// encoding/json would write (bytes that are not UTF-8 as U+FFFD).
func TestAppendJSONString(t *testing.T) {
	for _, s := range []string{"", "a b", `q"uo\te`, "tab\tnl\n\x00\x1f", "é✓😀", "bad\xff\xfeutf8", "<&>\u2028"} {
		js := appendJSONString(nil, s)
		var back string
		if err := json.Unmarshal(js, &back); err != nil {
			t.Fatalf("%q: %s: %v", s, js, err)
		}
		want, _ := json.Marshal(s)
		var wantBack string
		_ = json.Unmarshal(want, &wantBack)
		if back != wantBack {
			t.Errorf("%q: %s reads as %q, want %q", s, js, back, wantBack)
		}
	}
}
