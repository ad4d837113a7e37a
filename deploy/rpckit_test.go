package deploy_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// imageBinary is the rpckit binary's path in the image (deploy/Dockerfile).
const imageBinary = "/rpckit"

var (
	binDir    string // holds the rpckit binary built for the tests
	buildOnce sync.Once
	buildErr  error
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "rpckit-deploy-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// rpckitBin builds cmd/rpckit once, as the Dockerfile does, and returns
// its path.
func rpckitBin(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(binDir, "rpckit")
	buildOnce.Do(func() {
		out, err := exec.Command("go", "build", "-o", bin, rpckitPkg).CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build ./cmd/rpckit: %v\n%s", err, out)
			return
		}
		buildErr = statSources()
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return bin
}

const rpckitPkg = "github.com/rpckit/rpckit/cmd/rpckit"

// statSources stats every source file of the rpckit binary. The go command
// caches a test's result until a file the test opened or stat'ed changes;
// the binary is built and run in other processes, so without this a
// change to a flag would not run these tests again.
func statSources() error {
	out, err := exec.Command("go", "list", "-deps", "-f",
		`{{if not .Standard}}{{$d := .Dir}}{{range .GoFiles}}{{$d}}/{{.}}
{{end}}{{range .EmbedFiles}}{{$d}}/{{.}}
{{end}}{{end}}`, rpckitPkg).Output()
	if err != nil {
		return fmt.Errorf("go list -deps %s: %w", rpckitPkg, err)
	}
	for _, f := range strings.Fields(string(out)) {
		if _, err := os.Stat(f); err != nil {
			return err
		}
	}
	return nil
}

// helpFlag matches a flag line of cobra's --help: "  -c, --count int ...".
var helpFlag = regexp.MustCompile(`(?m)^\s+(?:-(\w), )?--([\w-]+)`)

var (
	helpMu    sync.Mutex
	helpCache = map[string]map[string]bool{}
)

// flagsOf returns the flag names `rpckit sub --help` lists, long ones as
// "--name" and short ones as "-x".
func flagsOf(t *testing.T, sub string) map[string]bool {
	t.Helper()
	helpMu.Lock()
	defer helpMu.Unlock()
	if f, ok := helpCache[sub]; ok {
		return f
	}
	out, err := exec.Command(rpckitBin(t), sub, "--help").CombinedOutput()
	if err != nil {
		t.Fatalf("rpckit %s --help: %v\n%s", sub, err, out)
	}
	flags := map[string]bool{}
	for _, m := range helpFlag.FindAllStringSubmatch(string(out), -1) {
		if m[1] != "" {
			flags["-"+m[1]] = true
		}
		flags["--"+m[2]] = true
	}
	helpCache[sub] = flags
	return flags
}

// checkFlags checks that every flag in an rpckit command line (after the
// subcommand) is one `rpckit sub --help` lists.
func checkFlags(t *testing.T, argv []string) error {
	if len(argv) == 0 || strings.HasPrefix(argv[0], "-") {
		return fmt.Errorf("no rpckit subcommand in %q", argv)
	}
	known := flagsOf(t, argv[0])
	for _, a := range argv[1:] {
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			continue
		}
		name, _, _ := strings.Cut(a, "=")
		if !strings.HasPrefix(name, "--") && len(name) > 2 {
			name = name[:2] // -c16
		}
		if !known[name] {
			return fmt.Errorf("rpckit %s has no flag %s", argv[0], name)
		}
	}
	return nil
}

// TestRpckitFlags: the flags given to rpckit, in containers' args and in
// exec probes, are flags of the subcommand they go to.
func TestRpckitFlags(t *testing.T) {
	n := 0
	for where, pod := range podTemplates(loadManifests(t)) {
		for _, c := range pod.Spec.Containers {
			for _, argv := range rpckitCommands(&c) {
				n++
				if err := checkFlags(t, argv); err != nil {
					t.Errorf("%s: container %q: %v", where, c.Name, err)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no rpckit command lines in the manifests")
	}
}

// rpckitCommands returns the rpckit command lines (subcommand first) that
// c runs: its own, and those of its exec probes.
func rpckitCommands(c *corev1.Container) [][]string {
	var out [][]string
	if isRpckit(c) {
		if argv, ok := rpckitArgv(c.Command, c.Args); ok {
			out = append(out, argv)
		}
	}
	for _, p := range probes(c) {
		if p.Exec != nil {
			if argv, ok := rpckitArgv(p.Exec.Command, nil); ok {
				out = append(out, argv)
			}
		}
	}
	return out
}

// rpckitArgv returns the arguments of an rpckit command and args, with the
// image's entry point when command is empty; ok is false for other programs.
func rpckitArgv(command, args []string) ([]string, bool) {
	if len(command) == 0 {
		return args, true
	}
	if command[0] != imageBinary {
		return nil, false
	}
	return append(command[1:len(command):len(command)], args...), true
}
