package gateway

import (
	"maps"
	"strings"
	"testing"
)

func TestParseTemplate(t *testing.T) {
	for _, tc := range []struct {
		in, err string
	}{
		{in: "/v1/things"},
		{in: "/v1/{name}"},
		{in: "/v1/{name=projects/*/items/*}:publish"},
		{in: "/v1/{book.name=shelves/*/books/*}"},
		{in: "/v1/files/{path=**}"},
		{in: "/v1/*/x/**"},
		{in: "v1", err: "col 1: must start with /"},
		{in: "/v1/{name", err: `variable "name" not closed`},
		{in: "/v1/{a={b}}", err: "nested variable"},
		{in: "/v1/**/x", err: "** must be the last segment"},
		{in: "/v1//x", err: "empty segment"},
		{in: "/v1/{a}/{a}", err: `field "a" bound twice`},
		{in: "/v1/{.a}", err: `bad field path ".a"`},
		{in: "/v1/x:", err: "empty verb"},
	} {
		_, err := ParseTemplate(tc.in)
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%q: error %v, want %q", tc.in, err, tc.err)
		}
	}
}

func TestTemplateMatch(t *testing.T) {
	for _, tc := range []struct {
		tmpl, path string
		want       map[string]string
		ok         bool
	}{
		{"/v1/things", "v1/things", nil, true},
		{"/v1/things", "v1/thing", nil, false},
		{"/v1/{name}", "v1/abc", map[string]string{"name": "abc"}, true},
		{"/v1/{name}", "v1/a%2Fb%20c", map[string]string{"name": "a/b c"}, true},
		{"/v1/{name}", "v1/a/b", nil, false},
		{"/v1/{name}", "v1/", nil, false},
		{"/v1/{name=projects/*/items/*}", "v1/projects/p1/items/i%2F2", map[string]string{"name": "projects/p1/items/i%2F2"}, true},
		{"/v1/{name=projects/*/items/*}", "v1/projects/p1/things/i2", nil, false},
		{"/v1/files/{path=**}", "v1/files/a/b/c.txt", map[string]string{"path": "a/b/c.txt"}, true},
		{"/v1/files/{path=**}", "v1/files", map[string]string{"path": ""}, true},
		{"/v1/{a}/x/{b.c}", "v1/1/x/2", map[string]string{"a": "1", "b.c": "2"}, true},
	} {
		tmpl, err := ParseTemplate(tc.tmpl)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := tmpl.Match(strings.Split(tc.path, "/"))
		if ok != tc.ok || ok && !maps.Equal(got, tc.want) {
			t.Errorf("%s ~ %s: %v %v, want %v %v", tc.tmpl, tc.path, got, ok, tc.want, tc.ok)
		}
	}
}

// FuzzParseTemplate: any text parses or fails with a positioned error,
// and a parsed template matches paths without panicking.
func FuzzParseTemplate(f *testing.F) {
	for _, s := range []string{"/v1/{name=projects/*/items/*}:publish", "/a/**", "/{x}", "/v1/{a.b=c/*}/d"} {
		f.Add(s, "v1/projects/p/items/i")
	}
	f.Fuzz(func(t *testing.T, tmpl, path string) {
		tp, err := ParseTemplate(tmpl)
		if err != nil {
			if _, ok := err.(*TemplateError); !ok {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		tp.Match(strings.Split(path, "/"))
	})
}
