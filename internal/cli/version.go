package cli

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

func newVersionCmd(stdio Stdio) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print rpckit's version, source revision and Go version",
		Args:  argsBetween(0, 0),
		RunE: func(*cobra.Command, []string) error {
			_, err := io.WriteString(stdio.Out, versionText())
			return err
		},
	}
}

// versionText describes this build, for --version and the version command.
func versionText() string {
	bi, _ := debug.ReadBuildInfo()
	return formatVersion(bi)
}

// formatVersion gives the module version, the VCS revision the build came
// from (with "(modified)" when the tree had changes), and the Go version
// and platform. What the build did not record (bi may be nil) says
// "unknown".
func formatVersion(bi *debug.BuildInfo) string {
	version, revision, modified := "unknown", "unknown", false
	if bi != nil {
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	if modified {
		revision += " (modified)"
	}
	return fmt.Sprintf("rpckit %s\nrevision %s\n%s %s/%s\n", version, revision, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
