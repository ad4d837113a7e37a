package cli

import (
	"os/exec"
	"strings"
	"testing"
)

// Quoted words read back by sh are the words given.
func TestShellJoin(t *testing.T) {
	words := []string{"plain", "a b", "it's", `$(rm -rf /)`, "`x`", `"q"`, "", "tab\there", "new\nline", `back\slash`, "{{.N}}", "*"}
	out, err := exec.Command("sh", "-c", `for a in `+shellJoin(words)+`; do printf '%s\0' "$a"; done`).Output()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if strings.Join(got, "|") != strings.Join(words, "|") {
		t.Errorf("sh read back %q, want %q", got, words)
	}
}
