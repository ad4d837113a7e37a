package dynamic_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/rpckit/rpckit/internal/thriftfixture"
	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/wire"
)

func TestParsePath(t *testing.T) {
	tests := []struct {
		in   string
		want dynamic.Path
	}{
		{"title", dynamic.Path{dynamic.FieldStep("title")}},
		{"items[2].name", dynamic.Path{dynamic.FieldStep("items"), dynamic.IndexStep(2), dynamic.FieldStep("name")}},
		{`byName["a]\"b"].id`, dynamic.Path{dynamic.FieldStep("byName"), dynamic.KeyStep(dynamic.StringKey(`a]"b`)), dynamic.FieldStep("id")}},
		{"names[-7]", dynamic.Path{dynamic.FieldStep("names"), dynamic.KeyStep(dynamic.IntKey(-7))}},
		{"m[true]", dynamic.Path{dynamic.FieldStep("m"), dynamic.KeyStep(dynamic.BoolKey(true))}},
		{"8.5", dynamic.Path{dynamic.IDStep(8), dynamic.IDStep(5)}},
		{"0", dynamic.Path{dynamic.IDStep(0)}},
	}
	for _, tc := range tests {
		got, err := dynamic.ParsePath(tc.in)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Fatalf("ParsePath(%q) = %#v, %v; want %#v", tc.in, got, err, tc.want)
		}
		if again, err := dynamic.ParsePath(got.String()); err != nil || !reflect.DeepEqual(again, got) {
			t.Fatalf("round trip through %q = %#v, %v", got.String(), again, err)
		}
	}
	for _, in := range []string{".a", "a..b", "a[", `a["x]`, "a[x]", "a[]", "32768", "a[1.5]", "a]b"} {
		var se *dynamic.PathSyntaxError
		if _, err := dynamic.ParsePath(in); !errors.As(err, &se) {
			t.Errorf("ParsePath(%q) = %v, want a PathSyntaxError", in, err)
		}
	}
}

// TestGetPathErrors: paths that do not fit the Type are PathErrors that
// say what is wrong.
func TestGetPathErrors(t *testing.T) {
	v := dynamic.NewValue(thriftfixture.BenchType(t, "Medium"), wire.Binary, thriftfixture.ReadSpecimen(t, "medium", "binary"))
	for path, want := range map[string]string{
		"titel":              `thrift/dynamic: path "titel": no field "titel" in Medium; did you mean "title"?`,
		"99":                 `thrift/dynamic: path "99": no field with id 99 in Medium`,
		"items.name":         `thrift/dynamic: path "items.name": want an index into list<Small>`,
		"items[0][1]":        `thrift/dynamic: path "items[0][1]": want a field of Small`,
		"labels[3]":          `thrift/dynamic: path "labels[3]": key 3 is not a string`,
		"totals[\"x\"]":      `thrift/dynamic: path "totals[\"x\"]": key "x" is not a i32`,
		"totals[4294967296]": `thrift/dynamic: path "totals[4294967296]": key 4294967296 out of the range of i32`,
		"title.x":            `thrift/dynamic: path "title": cannot step into string`,
		"labels.x":           `thrift/dynamic: path "labels.x": want a key of map<string,string>`,
	} {
		_, err := v.Get(dynamic.MustParsePath(path))
		var pe *dynamic.PathError
		if !errors.As(err, &pe) || err.Error() != want {
			t.Errorf("Get(%s) = %v\n want %s", path, err, want)
		}
	}
	large := dynamic.NewValue(thriftfixture.BenchType(t, "Large"), wire.Binary, thriftfixture.ReadSpecimen(t, "large", "binary"))
	if _, err := large.Get(dynamic.MustParsePath("bySmall[1]")); err == nil {
		t.Error("Get(bySmall[1]) on a map keyed by structs: no error")
	}
}

// TestGetAbsent: a field missing from the bytes, or under one, reads as
// absent with its Type.
func TestGetAbsent(t *testing.T) {
	v := dynamic.NewValue(thriftfixture.BenchType(t, "Medium"), wire.Compact, []byte{0})
	got, err := v.Get(dynamic.MustParsePath(`byName["x"].name`))
	if err != nil || got.Exists() || got.Type().Name() != "string" || got.String() != "" {
		t.Fatalf("Get = %v exists %v type %s, %v", got.String(), got.Exists(), got.Type().Name(), err)
	}
}

// TestGetAllocs: Get allocates nothing, at any depth, in both protocols.
func TestGetAllocs(t *testing.T) {
	for _, pr := range []string{"binary", "compact"} {
		p := map[string]wire.Protocol{"binary": wire.Binary, "compact": wire.Compact}[pr]
		v := dynamic.NewValue(thriftfixture.BenchType(t, "Large"), p, thriftfixture.ReadSpecimen(t, "large", pr))
		for _, s := range []string{deepPaths["large"], "pages[3].items[2].blob", "main.names[5000000035]", "main.totals[7]"} {
			path := dynamic.MustParsePath(s)
			if got, err := v.Get(path); err != nil || !got.Exists() {
				t.Fatalf("Get(%s) = exists %v, %v", s, got.Exists(), err)
			}
			if n := testing.AllocsPerRun(100, func() { v.Get(path) }); n != 0 {
				t.Errorf("Get(%s) on %s: %v allocations", s, pr, n)
			}
		}
	}
}
