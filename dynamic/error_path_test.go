package dynamic_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/rpckit/rpckit/dynamic"
)

// TestDeepErrorPath: a fault deep in nested input is named by the first
// and last steps of its path, not all of them.
func TestDeepErrorPath(t *testing.T) {
	b := lenRec(14, []byte{0xff}) // f_string, not UTF-8
	for range 9000 {
		b = lenRec(18, b)
	}
	err := dynamic.Validate(richType, b)
	var e *dynamic.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is not *dynamic.Error", err)
	}
	if want := "child.child.child.child...child.child.child.f_string"; e.Path != want {
		t.Errorf("path %.100q, want %q", e.Path, want)
	}

	p := make(dynamic.Path, 0, 2001)
	for range 2000 {
		p = append(p, dynamic.FieldStep("child"))
	}
	p = append(p, dynamic.FieldStep("nope"))
	_, err = dynamic.NewValue(richType, nil).Get(p)
	if err == nil || len(err.Error()) > 200 || !strings.Contains(err.Error(), `"child.child.child.child...child.child.child.nope"`) {
		t.Errorf("error %.200q, want the path cut", err)
	}
}

// TestNoFieldSuggestion: a path naming no field says which message it is
// not in and the closest field name, for Get as for a FieldMask.
func TestNoFieldSuggestion(t *testing.T) {
	_, err := dynamic.NewValue(richType, nil).Get(dynamic.Path{dynamic.FieldStep("child"), dynamic.FieldStep("f_nit32")})
	want := `dynamic: path "child.f_nit32": no field "f_nit32" in rpckit.fixture.v1.Rich; did you mean "f_int32"?`
	if err == nil || err.Error() != want {
		t.Errorf("Get: error %v, want %s", err, want)
	}
	_, err = dynamic.NewFieldMask(richType, "child.fInt3")
	want = `dynamic: path "child.fInt3": no field "fInt3" in rpckit.fixture.v1.Rich; did you mean "fInt32"?`
	if err == nil || err.Error() != want {
		t.Errorf("NewFieldMask: error %v, want %s", err, want)
	}
}
