package maketest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeTool writes a stand-in for staticcheck or deadcode that prints out
// and exits with code.
func fakeTool(t *testing.T, name, out string, code int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	script := "#!/bin/sh\nprintf '" + out + "'\nexit " + string(rune('0'+code)) + "\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLint(t *testing.T) {
	const (
		genOnly = `internal/gen/testpb/test.pb.go:10:6: func x is unused (U1000)\n`
		finding = `internal/gen/a.pb.go:1:1: unreachable func: A\nwire/skip.go:12:6: unreachable func: SkipValue\n`
	)
	for _, tc := range []struct {
		name       string
		sc, dc     string
		scRC, dcRC int
		wantRC     bool // a non-zero exit
		want       []string
		notWant    []string
	}{
		{name: "clean", wantRC: false},
		{name: "generated only", sc: genOnly, scRC: 1, dc: `internal/gen/a.pb.go:1:1: unreachable func: A\n`, wantRC: false},
		{name: "deadcode finding", dc: finding, wantRC: true,
			want: []string{"deadcode:", "wire/skip.go:12:6: unreachable func: SkipValue"}, notWant: []string{"internal/gen"}},
		{name: "staticcheck finding", sc: `server/listen.go:23:15: error strings should not end with punctuation (ST1005)\n`, scRC: 1,
			wantRC: true, want: []string{"staticcheck:", "server/listen.go:23:15"}},
		{name: "silent failure", scRC: 2, wantRC: true, want: []string{"staticcheck: failed (exit 2) without output"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := fakeTool(t, "staticcheck", tc.sc, tc.scRC)
			dc := fakeTool(t, "deadcode", tc.dc, tc.dcRC)
			out, code := run(t, nil, "lint.sh", sc, dc)
			if (code != 0) != tc.wantRC {
				t.Fatalf("exit %d, want non-zero %v:\n%s", code, tc.wantRC, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(out, w) {
					t.Errorf("output has %q:\n%s", w, out)
				}
			}
		})
	}
}
