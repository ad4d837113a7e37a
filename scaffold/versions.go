package scaffold

import (
	"runtime/debug"
	"strings"
)

// The versions the written go.mod requires: those of rpckit's own go.mod
// (a test holds them equal), so that a module cache filled by building
// rpckit builds the service too.
const (
	goVersion       = "1.26.0"
	grpcVersion     = "v1.85.0"
	protobufVersion = "v1.36.12"
)

const rpckitModule = "github.com/rpckit/rpckit"

// noVersion is the version a go.mod requires of a module it replaces.
const noVersion = "v0.0.0-00010101000000-000000000000"

// rpckitVersion is the version of rpckit running, when it was built as a
// released module, and noVersion otherwise (a checkout: the service's
// go.mod then needs a replace directive pointing at it).
func rpckitVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok || info.Main.Path != rpckitModule {
		return noVersion
	}
	v := info.Main.Version
	if !strings.HasPrefix(v, "v") || strings.Contains(v, "+") {
		return noVersion
	}
	return v
}
