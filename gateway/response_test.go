package gateway

import "testing"

// onlyValue cuts a field's value out of the one-key object transcode
// prints for a message kept down to that field, after what dst held.
func TestOnlyValue(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{}`, `null`},
		{`{"item":{"name":"a"}}`, `{"name":"a"}`},
		{`{"items":[{},{"a":1}]}`, `[{},{"a":1}]`},
		{`{"n":"42"}`, `"42"`},
		{`{"a\"b\\":true}`, `true`},
		{`{"m":{"k":"}"}}`, `{"k":"}"}`},
	} {
		got := onlyValue([]byte("prefix"+tc.in), len("prefix"))
		if string(got) != "prefix"+tc.want {
			t.Errorf("onlyValue(%s) = %s, want prefix%s", tc.in, got, tc.want)
		}
	}
}
