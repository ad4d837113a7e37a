package mdvalue

import "testing"

func TestRoundTrips(t *testing.T) {
	for _, v := range []string{"", "\x00", "\x00\x01", "\x00\x01\xfe", "\x00\x01\xfe\xff", "text"} {
		for _, enc := range []func(string, string) string{Encode, Text} {
			got, err := Decode("x-a-bin", enc("x-a-bin", v))
			if err != nil || got != v {
				t.Errorf("Decode(%q) = %q, %v; want %q", enc("x-a-bin", v), got, err, v)
			}
		}
	}
	if Encode("x-a-bin", "\x00\x01") != "AAE" || Text("x-a-bin", "\x00\x01") != "AAE=" {
		t.Errorf("Encode %q, Text %q; want AAE and AAE=", Encode("x-a-bin", "\x00\x01"), Text("x-a-bin", "\x00\x01"))
	}
	if Encode("x-a", "AAE=") != "AAE=" || Text("x-a", "\x01") != "\x01" {
		t.Error("text keys must pass through")
	}
}

func TestDecode(t *testing.T) {
	cases := []struct {
		key, text, want string
		err             bool
	}{
		{"x-a-bin", "AAE=", "\x00\x01", false},
		{"x-a-bin", "AAE", "\x00\x01", false},
		{"x-a-bin", "AAEC", "\x00\x01\x02", false},
		{"x-a-bin", "not base64!", "", true},
		{"x-a-bin", "AAE==", "", true},
		{"x-a", "not base64!", "not base64!", false},
	}
	for _, c := range cases {
		got, err := Decode(c.key, c.text)
		if got != c.want || (err != nil) != c.err {
			t.Errorf("Decode(%q, %q) = %q, %v", c.key, c.text, got, err)
		}
	}
	if DecodeOrKeep("x-a-bin", "not base64!") != "not base64!" || DecodeOrKeep("x-a-bin", "AAE=") != "\x00\x01" {
		t.Error("DecodeOrKeep")
	}
}
