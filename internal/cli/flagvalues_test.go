package cli

import (
	"slices"
	"testing"
)

// TestTopLevel: the commas of --mask style lists and the '=' of --set
// are found outside brackets and quoted strings only.
func TestTopLevel(t *testing.T) {
	for in, want := range map[string][]string{
		`a,b.c`:                {`a`, `b.c`},
		`m["x,y"],n[1,2]`:      {`m["x,y"]`, `n[1,2]`},
		`m["a\",b"],c`:         {`m["a\",b"]`, `c`},
		`a,,b`:                 {`a`, ``, `b`},
		`x]],y`:                {`x]]`, `y`},
		``:                     {``},
		`m["k=v"]=1,m[",="]=2`: {`m["k=v"]=1`, `m[",="]=2`},
	} {
		if got := splitPaths(in); !slices.Equal(got, want) {
			t.Errorf("splitPaths(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]int{`a=1`: 1, `m["k=v"]=1`: 8, `m[a=b]=2`: 6, `"=`: -1, `a`: -1, `m["\"="]=3`: 8} {
		if got := pathEnd(in); got != want {
			t.Errorf("pathEnd(%q) = %d, want %d", in, got, want)
		}
	}
}
