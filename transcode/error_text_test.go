package transcode

import (
	"errors"
	"strings"
	"testing"

	"github.com/rpckit/rpckit/dynamic"
)

// TestUnknownFieldSuggestion: an unknown key names the message it is not a
// field of and the closest field names, in the form (JSON or proto) the
// key is closest to.
func TestUnknownFieldSuggestion(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"fInt3":1}`, `line 1 col 2: unknown field "fInt3" in rpckit.fixture.v1.Rich; did you mean "fInt32"?`},
		{`{"f_nit32":1}`, `unknown field "f_nit32" in rpckit.fixture.v1.Rich; did you mean "f_int32"?`},
		{`{"child":{"chidl":{}}}`, `field "child": unknown field "chidl" in rpckit.fixture.v1.Rich; did you mean "child"?`},
		{`{"zzzzzz":1}`, `unknown field "zzzzzz" in rpckit.fixture.v1.Rich`},
	} {
		_, err := Unmarshal(dynamic.TypeOf(decRich), []byte(tc.in))
		if err == nil || !strings.HasSuffix(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to end %q", tc.in, err, tc.want)
		}
	}
}

// TestUnknownFieldCause: the key that names no field is the error's
// cause, unescaped, beside the path of the message it is in.
func TestUnknownFieldCause(t *testing.T) {
	_, err := Unmarshal(dynamic.TypeOf(decRich), []byte(`{"child":{"ch\u0069dx":{}}}`))
	var te *Error
	var uf *UnknownFieldError
	if !errors.As(err, &te) || !errors.As(err, &uf) {
		t.Fatalf("error %v: want an *Error caused by an *UnknownFieldError", err)
	}
	if te.Path != "child" || uf.Name != "chidx" {
		t.Errorf("path %q, name %q; want child, chidx", te.Path, uf.Name)
	}
}

// TestLoneSurrogate: a surrogate escape without its other half is named as
// such, not as the end of the string, which is not there.
func TestLoneSurrogate(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"fString":"\ud800"}`, `line 1 col 13: field "fString": unpaired surrogate \ud800 in string`},
		{`{"fString":"\ud800x"}`, `unpaired surrogate \ud800`},
		{`{"fString":"\ud800\u0041"}`, `unpaired surrogate \ud800`},
		{`{"fString":"\udc00\ud800"}`, `col 13: field "fString": unpaired surrogate \udc00`},
		{`{"fString":"\ud800\uzzzz"}`, `invalid escape code "\\uzzzz" in string`},
		{`{"fString":"\ud800`, `unterminated string`},
		{`{"fString":"\ud800\u`, `unterminated string`},
		{`{"fString":"\ud800\udc`, `unterminated string`},
	} {
		_, err := Unmarshal(dynamic.TypeOf(decRich), []byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.in, err, tc.want)
		}
	}
}

// TestDeepErrorPath: an error deep in nested input names its first and
// last steps, not all of them.
func TestDeepErrorPath(t *testing.T) {
	const n = 9000
	in := strings.Repeat(`{"child":`, n) + `{"fInt32":"x"}` + strings.Repeat(`}`, n)
	_, err := Unmarshal(dynamic.TypeOf(decRich), []byte(in))
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is not *Error", err)
	}
	if want := "child.child.child.child...child.child.child.fInt32"; e.Path != want {
		t.Errorf("path %.100q, want %q", e.Path, want)
	}
	if len(err.Error()) > 200 {
		t.Errorf("error is %d bytes: %.100q", len(err.Error()), err)
	}
}

// TestDeepMarshalErrorPath: the same for wire input.
func TestDeepMarshalErrorPath(t *testing.T) {
	const n = 9000
	b := []byte{14<<3 | 2, 1, 0xff} // fString holding invalid UTF-8, inside n children
	for range n {
		b = append(appendChild(nil, len(b)), b...)
	}
	_, err := Marshal(dynamic.TypeOf(decRich), b)
	if err == nil {
		t.Fatal("no error")
	}
	if len(err.Error()) > 200 || !strings.Contains(err.Error(), "child.child.child.child...child.child.child.") {
		t.Errorf("error is %d bytes: %.200q", len(err.Error()), err)
	}
}

// appendChild appends the tag and length of Rich.child (18) holding n bytes.
func appendChild(b []byte, n int) []byte {
	b = append(b, 18<<3|2, 1) // field 18 takes a two-byte tag
	for n >= 0x80 {
		b = append(b, byte(n)|0x80)
		n >>= 7
	}
	return append(b, byte(n))
}

// TestControlByteToken: a control byte out of place is quoted in the
// message, not printed raw.
func TestControlByteToken(t *testing.T) {
	_, err := Unmarshal(dynamic.TypeOf(decRich), []byte("\x06secret"))
	if err == nil || strings.ContainsRune(err.Error(), 6) || !strings.Contains(err.Error(), `"\x06"`) {
		t.Errorf("error %q, want the byte quoted", err)
	}
}
