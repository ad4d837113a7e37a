package dynamic_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/rpckit/rpckit/dynamic"
)

func TestParsePath(t *testing.T) {
	tests := []struct {
		in   string
		want dynamic.Path
	}{
		{"a", dynamic.Path{dynamic.FieldStep("a")}},
		{"a.b[2].c", dynamic.Path{dynamic.FieldStep("a"), dynamic.FieldStep("b"), dynamic.IndexStep(2), dynamic.FieldStep("c")}},
		{`m["key"]`, dynamic.Path{dynamic.FieldStep("m"), dynamic.KeyStep(dynamic.StringKey("key"))}},
		{`m["a]\"b"].x`, dynamic.Path{dynamic.FieldStep("m"), dynamic.KeyStep(dynamic.StringKey(`a]"b`)), dynamic.FieldStep("x")}},
		{"m[42]", dynamic.Path{dynamic.FieldStep("m"), dynamic.IndexStep(42)}},
		{"m[-7]", dynamic.Path{dynamic.FieldStep("m"), dynamic.KeyStep(dynamic.IntKey(-7))}},
		{"m[18446744073709551615]", dynamic.Path{dynamic.FieldStep("m"), dynamic.KeyStep(dynamic.UintKey(1<<64 - 1))}},
		{"m[true]", dynamic.Path{dynamic.FieldStep("m"), dynamic.KeyStep(dynamic.BoolKey(true))}},
		{"3.17", dynamic.Path{dynamic.NumberStep(3), dynamic.NumberStep(17)}},
		{"m[1][2]", dynamic.Path{dynamic.FieldStep("m"), dynamic.IndexStep(1), dynamic.IndexStep(2)}},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := dynamic.ParsePath(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("ParsePath = %#v, want %#v", got, tc.want)
			}
			again, err := dynamic.ParsePath(got.String())
			if err != nil || !reflect.DeepEqual(again, got) {
				t.Fatalf("round trip through %q = %#v, %v", got.String(), again, err)
			}
		})
	}
}

func TestParsePathErrors(t *testing.T) {
	for _, in := range []string{".a", "a..b", "a[", `a["x]`, "a[x]", "a[]", "a.0", "a[1.5]", `a["\q"]`, "a]b"} {
		t.Run(in, func(t *testing.T) {
			_, err := dynamic.ParsePath(in)
			var se *dynamic.PathSyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("ParsePath(%q) = %v, want a PathSyntaxError", in, err)
			}
		})
	}
}
