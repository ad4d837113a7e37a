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
