package cli

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func TestFormatVersion(t *testing.T) {
	goLine := runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + "\n"
	for _, tc := range []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"no build info", nil, "rpckit unknown\nrevision unknown\n" + goLine},
		{"release", &debug.BuildInfo{
			Main: debug.Module{Version: "v1.2.3"},
			Settings: []debug.BuildSetting{
				{Key: "vcs", Value: "git"},
				{Key: "vcs.revision", Value: "0123456789abcdef"},
				{Key: "vcs.modified", Value: "false"},
			},
		}, "rpckit v1.2.3\nrevision 0123456789abcdef\n" + goLine},
		{"modified tree", &debug.BuildInfo{
			Main: debug.Module{Version: "(devel)"},
			Settings: []debug.BuildSetting{
				{Key: "vcs.revision", Value: "fedcba"},
				{Key: "vcs.modified", Value: "true"},
			},
		}, "rpckit (devel)\nrevision fedcba (modified)\n" + goLine},
	} {
		if got := formatVersion(tc.bi); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}
