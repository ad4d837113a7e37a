package cli

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestMessageReader(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		err  string
	}{
		{in: "", want: nil},
		{in: `{"a":1}`, want: []string{`{"a":1}`}},
		{in: "{}\n{\"b\":[1,2]}  {}", want: []string{`{}`, `{"b":[1,2]}`, `{}`}},
		{in: "{}\n\n  {\"a\": tru}", want: []string{`{}`}, err: "request 2: invalid JSON at line 3 col 12: invalid character '}' in literal true (expecting 'e')"},
		{in: `{"a":`, err: "request 1: invalid JSON: input ends inside a value"},
		{in: `"str"`, err: `request 1 (line 1): want a JSON object, got "str"`},
	} {
		r, _, _ := openInput(tc.in, nil, defaultMaxMsgSize, nil)
		var got []string
		var err error
		for {
			var raw json.RawMessage
			raw, err = r.next()
			if err != nil {
				break
			}
			got = append(got, string(raw))
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%q: messages %q, want %q", tc.in, got, tc.want)
		}
		if tc.err == "" && err != io.EOF || tc.err != "" && (err == nil || err.Error() != tc.err) {
			t.Errorf("%q: error %v, want %q", tc.in, err, tc.err)
		}
	}
}

// FuzzMessageReader: any input gives JSON objects then io.EOF or an
// error, never a panic, and positions stay inside the input.
func FuzzMessageReader(f *testing.F) {
	for _, s := range []string{"{}", "{} {\"a\":1}", "{\n\"a\": [1,\n2,}", "\"x\"", "{\"a\":\"\\u00e9\"}\n{"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		r := newMessageReader(strings.NewReader(in))
		for range 1000 {
			raw, err := r.next()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				if strings.Contains(err.Error(), "line 0") || strings.Contains(err.Error(), "col 0") {
					t.Fatalf("bad position in %v", err)
				}
				return
			}
			if !json.Valid(raw) || raw[0] != '{' {
				t.Fatalf("returned %q", raw)
			}
		}
	})
}

func TestParseHeaders(t *testing.T) {
	t.Setenv("RPCKIT_TEST_TOKEN", "tok")
	md, err := parseHeaders([]string{"Authorization: Bearer ${RPCKIT_TEST_TOKEN}", "x-a: 1", "x-a:2", "x-bin: AQI=", "x-raw-bin: not base64!", "x-dollar: $HOME ${}"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"authorization": {"Bearer tok"}, "x-a": {"1", "2"}, "x-bin": {"\x01\x02"},
		"x-raw-bin": {"not base64!"}, "x-dollar": {"$HOME ${}"},
	}
	for k, v := range want {
		if strings.Join(md[k], "|") != strings.Join(v, "|") {
			t.Errorf("%s = %q, want %q", k, md[k], v)
		}
	}
	if len(md) != len(want) {
		t.Errorf("got keys %v", md)
	}
	for _, bad := range []string{"novalue", ": x", ""} {
		if _, err := parseHeaders([]string{bad}); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
