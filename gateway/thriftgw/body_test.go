package thriftgw

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestBlankKeepsJSON: blanking any member leaves a valid object with the
// other members at the same offsets.
func TestBlankKeepsJSON(t *testing.T) {
	src := "{\"a\": 1,\n \"b\": {\"x\": [1, \"}\"]},\t\"c\": \"\\\"q\" , \"d\": null}"
	ms, end, err := members([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got := []string{ms[0].key, ms[1].key, ms[2].key, ms[3].key}; strings.Join(got, ",") != "a,b,c,d" {
		t.Fatalf("keys %v", got)
	}
	if end != len(src)-1 {
		t.Fatalf("end %d, want %d", end, len(src)-1)
	}
	for i := range ms {
		b := []byte(src)
		blank(b, ms[i])
		if len(b) != len(src) || !json.Valid(b) {
			t.Fatalf("blank %s: %q", ms[i].key, b)
		}
		for j, m := range ms {
			if j != i && string(b[m.start:m.end]) != src[m.start:m.end] {
				t.Errorf("blank %s moved %s", ms[i].key, m.key)
			}
		}
	}
}

func TestParsePathErrors(t *testing.T) {
	for _, p := range []string{"v1/x", "/v1/*rest/more", "/v1/:", "/v1/{}", "/v1/*"} {
		if _, err := parsePath(p); err == nil {
			t.Errorf("parsePath(%q): no error", p)
		}
	}
}

func FuzzMembers(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1}`, `{"a": [1, {"b": "}"}], "c": "x\"y"}`, `{"a":}`, `[1]`, `{"a":1,}`, `{"a" 1}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ms, end, err := members([]byte(s))
		if err != nil {
			return
		}
		if end >= len(s) || s[end] != '}' {
			t.Fatalf("end %d in %q", end, s)
		}
		for _, m := range ms {
			if m.start < 0 || m.end > end || m.start >= m.end {
				t.Fatalf("member %+v in %q", m, s)
			}
			b := []byte(s)
			blank(b, m)
			if json.Valid([]byte(s)) && !json.Valid(b) {
				t.Fatalf("blank %q of %q: %q", m.key, s, b)
			}
		}
	})
}
