package schema

import (
	"slices"
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
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"pkg.Svc.Ecko", []string{"pkg.Svc.Echo"}},
		{"pkg.Scv.Sum", []string{"pkg.Svc.Sum"}},
		{"pkg.Svc.count", []string{"pkg.Other.Count"}},
		{"zzz.Nothing.Like", []string{}},
	} {
		if got := Closest(tc.name, methods, 3); !slices.Equal(got, tc.want) {
			t.Errorf("Closest(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}
