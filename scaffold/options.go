package scaffold

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Options says what Generate writes and where.
type Options struct {
	// Dir is the module's directory; it is created when missing.
	Dir string
	// Protos are the .proto files of the service, as paths relative to one
	// of ImportPaths (or to the working directory when there are none).
	// Their imports are generated too, except google/... files, whose Go
	// packages exist already.
	Protos []string
	// ImportPaths are the directories searched for Protos and their imports.
	ImportPaths []string
	// Module is the Go module path; empty means the base name of Dir, or
	// with Update the module path in Dir/go.mod.
	Module string
	// Update regenerates the stubs (and the copies of the .proto files in
	// Dir/proto) of a module written before, and touches nothing else.
	Update bool
}

// modulePath checks the module path, or finds it when it is empty.
func (o Options) modulePath() (string, error) {
	if o.Update {
		return o.updateModulePath()
	}
	if o.Module != "" {
		return o.Module, checkModulePath(o.Module)
	}
	abs, err := filepath.Abs(o.Dir)
	if err != nil {
		return "", fmt.Errorf("scaffold: %w", err)
	}
	mod := strings.ToLower(filepath.Base(abs))
	if err := checkModulePath(mod); err != nil {
		return "", fmt.Errorf("%w (choose one with Module)", err)
	}
	return mod, nil
}

// updateModulePath is the module path in Dir/go.mod, which Module, when
// set, must repeat: stubs under another path would not build.
func (o Options) updateModulePath() (string, error) {
	gomod := filepath.Join(o.Dir, "go.mod")
	mod, err := readModulePath(gomod)
	if err != nil {
		return "", err
	}
	if o.Module != "" && o.Module != mod {
		return "", fmt.Errorf("scaffold: module path %q differs from %q in %s", o.Module, mod, gomod)
	}
	return mod, nil
}

var modulePathRE = regexp.MustCompile(`^[a-z0-9][a-z0-9._~-]*(/[A-Za-z0-9._~-]+)*$`)

func checkModulePath(mod string) error {
	if !modulePathRE.MatchString(mod) || strings.Contains(mod, "..") {
		return fmt.Errorf("scaffold: module path %q is not a valid Go module path", mod)
	}
	return nil
}

func readModulePath(gomod string) (string, error) {
	data, err := os.ReadFile(gomod)
	if errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("scaffold: %s: no module to update here (create it without Update first)", gomod)
	}
	if err != nil {
		return "", fmt.Errorf("scaffold: %w", err)
	}
	mod := moduleLine(string(data))
	if mod == "" {
		return "", fmt.Errorf("scaffold: %s: no module line", gomod)
	}
	return mod, nil
}

func (o Options) validate() error {
	if o.Dir == "" {
		return errors.New("scaffold: no directory to write the module in")
	}
	if len(o.Protos) == 0 {
		return errors.New("scaffold: no .proto file given")
	}
	if o.Update {
		return nil
	}
	if _, err := os.Stat(filepath.Join(o.Dir, "go.mod")); err == nil {
		return fmt.Errorf("scaffold: %s holds a module already: update its stubs with Update (--update)", o.Dir)
	}
	return nil
}

// moduleLine returns the path of go.mod's module directive.
func moduleLine(gomod string) string {
	for line := range strings.Lines(gomod) {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}
