package errtext

import (
	"slices"
	"strings"
	"testing"
)

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"echo", "echo", 0},
		{"ecko", "echo", 1}, {"itme", "item", 1}, {"kitten", "sitting", 3},
		{"abcd", "acbd", 1}, {"sum", "echo", 4},
	} {
		if got := distance(tc.a, tc.b); got != tc.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := distance(tc.b, tc.a); got != tc.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tc.b, tc.a, got, tc.want)
		}
	}
}

func TestClosest(t *testing.T) {
	methods := []string{"pkg.Svc.Echo", "pkg.Svc.Sum", "pkg.Svc.Chat", "pkg.Other.Count"}
	fields := []string{"context", "candidateCount", "candidate_count", "item"}
	for _, tc := range []struct {
		name       string
		candidates []string
		want       []string
	}{
		{"pkg.Svc.Ecko", methods, []string{"pkg.Svc.Echo"}},
		{"pkg.Scv.Sum", methods, []string{"pkg.Svc.Sum"}},
		{"pkg.Svc.count", methods, []string{"pkg.Other.Count"}},
		{"zzz.Nothing.Like", methods, []string{}},
		{"contxt", fields, []string{"context"}},
		{"itme", fields, []string{"item"}},
		{"candidate_cont", fields, []string{"candidate_count", "candidateCount"}},
		{"zebra", fields, []string{}},
	} {
		if got := Closest(tc.name, tc.candidates, 3); !slices.Equal(got, tc.want) {
			t.Errorf("Closest(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	if got := DidYouMean(nil); got != "" {
		t.Errorf("DidYouMean(nil) = %q", got)
	}
	if got, want := DidYouMean([]string{"a", "b"}), `; did you mean "a" or "b"?`; got != want {
		t.Errorf("DidYouMean = %q, want %q", got, want)
	}
}

func TestShortPath(t *testing.T) {
	deep := "item" + strings.Repeat(".child", 10000) + ".name"
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"a", "a"},
		{"a.b[2].c", "a.b[2].c"},
		{"a.b.c.d.e.f.g.h.i", "a.b.c.d.e.f.g.h.i"},
		{"a.b.c.d.e.f.g.h.i.j", "a.b.c.d...g.h.i.j"},
		{"a[1][2][3][4][5][6][7][8][9]", "a[1][2][3]...[6][7][8][9]"},
		{`m["a.b"].m["c[d"].m["e\"].f"].x.y.z`, `m["a.b"].m["c[d"].m["e\"].f"].x.y.z`},
		{`m["a.b"].m["c[d"].m["e\"].f"].x.y.z.w`, `m["a.b"].m["c[d"]...x.y.z.w`},
		{`a.b.c.d.e.f.g.h.m["x.y.z.v.w"]`, `a.b.c.d...g.h.m["x.y.z.v.w"]`},
		{deep, "item.child.child.child...child.child.child.name"},
	} {
		if got := ShortPath(tc.in); got != tc.want {
			t.Errorf("ShortPath(%.40q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestShortPathStepwise cuts a path at each step as it is built from the
// innermost out, as an error passing up through its messages does: the
// result is the same as one cut of the whole, and stays short on the way.
func TestShortPathStepwise(t *testing.T) {
	for _, tc := range []struct{ inner, step, sep string }{
		{"name", "child", "."},
		{"[7]", "[1]", ""},
		{"x", `m["k.k"]`, "."},
	} {
		whole, cut := tc.inner, tc.inner
		for range 1000 {
			whole = tc.step + tc.sep + whole
			cut = ShortPath(tc.step + tc.sep + cut)
			if len(cut) > 200 {
				t.Fatalf("%s: stepwise path grew to %d bytes: %.80q", tc.inner, len(cut), cut)
			}
		}
		if want := ShortPath(whole); cut != want {
			t.Errorf("stepwise %q, want %q", cut, want)
		}
	}
}
