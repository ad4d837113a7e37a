package jsonx

import "testing"

// TestScanString: each kind of fault at its place, and whole strings with
// their end and whether they hold escapes.
func TestScanString(t *testing.T) {
	for _, c := range []struct {
		in   string
		want String
		kind FaultKind
		at   int
		high bool
	}{
		{in: `"abc" `, want: String{Start: 1, End: 4}},
		{in: `"a\n\u00e9\ud83d\ude00"`, want: String{Start: 1, End: 22, Esc: true}},
		{in: `"é東"`, want: String{Start: 1, End: 6}},
		{in: `"abc`, kind: Unterminated, at: 4},
		{in: `"é`, kind: Unterminated, at: 3, high: true},
		{in: `"ab\`, kind: Unterminated, at: 3},
		{in: "\"a\x01\"", kind: BadChar, at: 2},
		{in: `"a\x"`, kind: BadEscape, at: 2},
		{in: `"\u12"`, kind: BadHex, at: 1},
		{in: `"\u12`, kind: BadHex, at: 1},
		{in: `"é\udc00"`, kind: LoneSurrogate, at: 3, high: true},
		{in: `"\ud800\u0041"`, kind: LoneSurrogate, at: 1},
		{in: `"\ud800"`, kind: LoneSurrogate, at: 1},
		{in: "\"ab\xffc\\n\"", kind: BadUTF8, at: 3},
		{in: "\"ab\xff\x01\"", kind: BadChar, at: 4, high: true},
	} {
		pos := 0
		s, f := ScanString([]byte(c.in), &pos)
		if f != (Fault{c.kind, c.at, c.high}) {
			t.Errorf("ScanString(%q): fault %+v, want %+v", c.in, f, Fault{c.kind, c.at, c.high})
		}
		wantPos := 0 // left where it was at a fault
		if c.kind == NoFault {
			wantPos = c.want.End + 1
		}
		if c.kind == NoFault && s != c.want || pos != wantPos {
			t.Errorf("ScanString(%q) = %+v ending at %d, want %+v at %d", c.in, s, pos, c.want, wantPos)
		}
	}
}

// TestStringValue: the contents in place without escapes, unescaped into
// the scratch buffer with them.
func TestStringValue(t *testing.T) {
	var scratch []byte
	for in, want := range map[string]string{
		`"plain"`:                    "plain",
		`"a\"\\\/\b\f\n\r\tz"`:       "a\"\\/\b\f\n\r\tz",
		`"\u00e9\u6771\ud83d\ude00"`: "é東😀",
	} {
		pos := 0
		s, f := ScanString([]byte(in), &pos)
		if f.Kind != NoFault {
			t.Fatalf("ScanString(%q): %+v", in, f)
		}
		if got := string(s.Value([]byte(in), &scratch)); got != want {
			t.Errorf("Value of %s = %q, want %q", in, got, want)
		}
	}
}

func TestSkipSpaceAndLiteral(t *testing.T) {
	in := []byte(" \t\r\n true,nullx false")
	pos := 0
	if c := SkipSpace(in, &pos); pos != 5 || c != 't' || !Literal(in, &pos, "true") || pos != 9 {
		t.Fatalf("SkipSpace then Literal true: at %d, byte %q", pos, c)
	}
	if pos = 10; Literal(in, &pos, "null") || pos != 10 {
		t.Errorf(`"nullx" taken for null, or moved to %d`, pos)
	}
	if pos = 15; SkipSpace(in, &pos) != 'f' || !Literal(in, &pos, "false") || pos != len(in) {
		t.Errorf("false at the end of the input: at %d", pos)
	}
	if pos = 17; Literal(in, &pos, "false") {
		t.Error("a literal past the end of the input")
	}
	if pos = 15; SkipSpace(in[:16], &pos) != 0 || pos != 16 {
		t.Errorf("SkipSpace to the end of the input: at %d", pos)
	}
}
