package pathsyntax

import "testing"

func TestNextNumberRange(t *testing.T) {
	tests := []struct {
		in       string
		min, max int64
		ok       bool
	}{
		{"0", 0, 32767, true},
		{"0", 1, 1 << 29, false},
		{"32767", 0, 32767, true},
		{"32768", 0, 32767, false},
		{"99999999999", 0, 32767, true}, // too long for a number: a name
	}
	for _, tc := range tests {
		st, _, err := Next(tc.in, 0, true, tc.min, tc.max)
		if (err == nil) != tc.ok {
			t.Errorf("Next(%q, %d..%d) = %+v, %v", tc.in, tc.min, tc.max, st, err)
		}
	}
}

func TestNextSteps(t *testing.T) {
	s := `a.7["k\"]"][-3][2][true]`
	want := []Step{
		{Kind: Field, Name: "a"},
		{Kind: Field, Num: 7},
		{Kind: Entry, Key: Key{Kind: String, Str: `k"]`}},
		{Kind: Entry, Key: Key{Kind: Int, Int: -3}},
		{Kind: Index, Index: 2, Key: Key{Kind: Int, Int: 2}},
		{Kind: Entry, Key: Key{Kind: Bool, Uint: 1}},
	}
	i := 0
	for n := 0; i < len(s); n++ {
		st, next, err := Next(s, i, n == 0, 0, 32767)
		if err != nil {
			t.Fatal(err)
		}
		if n >= len(want) || st != want[n] {
			t.Fatalf("step %d = %+v", n, st)
		}
		i = next
	}
	if got := Format(want); got != s {
		t.Errorf("Format = %s, want %s", got, s)
	}
}

func TestPrepend(t *testing.T) {
	for _, tc := range []struct{ step, rest, want string }{
		{"a", "", "a"},
		{"a", "b.c", "a.b.c"},
		{"a", "[2].c", "a[2].c"},
		{"[\"k\"]", "x", "[\"k\"].x"},
	} {
		if got := Prepend(tc.step, tc.rest); got != tc.want {
			t.Errorf("Prepend(%q, %q) = %q, want %q", tc.step, tc.rest, got, tc.want)
		}
	}
}
