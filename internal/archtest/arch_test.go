// Package archtest holds the import rules of ARCHITECTURE.md, and the
// rules around them: examples use only the public API, the pure packages
// hold no package state beyond an allowlist with reasons, no init function
// can panic, and exported APIs show no third-party types. Each rule also
// runs on a package in testdata that breaks it, so a rule that stops
// seeing violations fails.
package archtest

import (
	"bufio"
	"bytes"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/rpckit/rpckit"

type pkg struct {
	path    string
	imports []string // direct
	deps    []string // transitive
}

func listPackages(t *testing.T) map[string]pkg {
	t.Helper()
	out, err := exec.Command("go", "list", "-f",
		"{{.ImportPath}}|{{join .Imports \" \"}}|{{join .Deps \" \"}}", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string]pkg{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		parts := strings.Split(sc.Text(), "|")
		path := strings.TrimPrefix(strings.TrimPrefix(parts[0], module), "/")
		pkgs[path] = pkg{path, strings.Fields(parts[1]), strings.Fields(parts[2])}
	}
	return pkgs
}

// local lists a package's direct imports inside the module.
func (p pkg) local() []string {
	var out []string
	for _, imp := range p.imports {
		if rest, ok := strings.CutPrefix(imp, module+"/"); ok {
			out = append(out, rest)
		}
	}
	return out
}

func under(path, root string) bool { return path == root || strings.HasPrefix(path, root+"/") }

// TestPurePackages: wire, dynamic and transcode reach no network, no gRPC,
// and neither exit nor log.
func TestPurePackages(t *testing.T) {
	for _, p := range listPackages(t) {
		if !under(p.path, "wire") && !under(p.path, "dynamic") && !under(p.path, "transcode") {
			continue
		}
		for _, d := range p.deps {
			if d == "net" || strings.HasPrefix(d, "google.golang.org/grpc") {
				t.Errorf("%s depends on %s; wire, dynamic and transcode stay pure", p.path, d)
			}
		}
		for _, imp := range p.imports {
			if imp == "os" || imp == "log" || strings.HasPrefix(imp, "os/") {
				t.Errorf("%s imports %s; wire, dynamic and transcode stay pure", p.path, imp)
			}
		}
	}
}

// thriftPure are the Thrift packages held to the standard library: the
// IDL model, the wire protocols, the in-place edits and JSON conversion.
var thriftPure = []string{"thrift/idl", "thrift/wire", "thrift/dynamic", "thrift/transcode"}

// TestThriftPurePackages: thrift/idl, thrift/wire, thrift/dynamic and thrift/transcode import only the
// standard library and the internal leaves, reach no network, and neither
// exit nor log (no os, no log).
func TestThriftPurePackages(t *testing.T) {
	for _, p := range listPackages(t) {
		if !slices.ContainsFunc(thriftPure, func(root string) bool { return under(p.path, root) }) {
			continue
		}
		for _, d := range p.deps {
			if d == "net" {
				t.Errorf("%s depends on %s; %v reach no network", p.path, d, thriftPure)
			}
		}
		for _, imp := range p.imports {
			if imp == "os" || imp == "log" || strings.HasPrefix(imp, "os/") || strings.HasPrefix(imp, "log/") {
				t.Errorf("%s imports %s; %v neither exit nor log", p.path, imp, thriftPure)
			}
			if !standard(imp) && !strings.HasPrefix(imp, module+"/") {
				t.Errorf("%s imports %s; %v import only the standard library", p.path, imp, thriftPure)
			}
		}
	}
}

// TestThriftClientImports: thrift/client, on the network, still takes no
// third-party code: the standard library and the module only.
func TestThriftClientImports(t *testing.T) {
	p, ok := listPackages(t)["thrift/client"]
	if !ok {
		t.Fatal("thrift/client not found")
	}
	for _, imp := range p.imports {
		if !standard(imp) && !strings.HasPrefix(imp, module+"/") {
			t.Errorf("thrift/client imports %s; it takes only the standard library and the module", imp)
		}
	}
}

// standard reports whether an import path is the standard library's: its
// first element has no dot.
func standard(imp string) bool {
	first, _, _ := strings.Cut(imp, "/")
	return !strings.Contains(first, ".")
}

func TestLoadHasNoRPC(t *testing.T) {
	for _, p := range listPackages(t) {
		if !under(p.path, "load") {
			continue
		}
		for _, d := range p.deps {
			if strings.HasPrefix(d, "google.golang.org/grpc") || strings.HasPrefix(d, "google.golang.org/protobuf") {
				t.Errorf("%s depends on %s; load takes its work from the caller", p.path, d)
			}
		}
	}
}

// allowed lists, for library packages, the module packages they may import.
var allowed = map[string][]string{
	"wire":      {},
	"dynamic":   {"wire", "internal/utf8x", "internal/errtext", "internal/pathsyntax", "internal/pool"},
	"transcode": {"wire", "dynamic", "internal/utf8x", "internal/errtext", "internal/jsonx"},
	"schema":    {"internal/errtext"},
	"invoke":    {"schema", "dynamic", "transcode", "wire", "internal/sysconn"},
	// The gRPC load target of bench, the ui and the demo: invoke's engines
	// timed by load.
	"invoke/loadtarget": {"invoke", "load", "schema", "dynamic", "transcode", "wire"},
	// Metadata values to and from header text: a leaf, the standard library.
	"invoke/mdvalue": {},
	"load":           {},
	"load/report":    {"load"},
	"interceptor":    {},
	"server":         {"interceptor", "internal/bodytimeout"},
	"scaffold":       {"schema"},
	"gateway":        {"transcode", "invoke", "schema", "dynamic", "wire", "interceptor", "internal/bodytimeout", "internal/gwmetrics"},
	"ui": {"schema", "invoke", "transcode", "load", "load/report", "dynamic", "wire", "internal/bodytimeout",
		"thrift/invoke", "thrift/idl", "thrift/client", "thrift/wire", "thrift/transcode"},
	// The gateway in front of Thrift services: the Thrift engine and its client.
	"gateway/thriftgw": {"thrift/idl", "thrift/wire", "thrift/dynamic", "thrift/transcode", "thrift/client",
		"internal/bodytimeout", "internal/gwmetrics"},

	// The Thrift side: its pure packages take from the module only the
	// internal leaves (TestThriftPurePackages holds the rest).
	"thrift/idl":  {"internal/utf8x", "internal/errtext"},
	"thrift/wire": {"internal/utf8x", "internal/errtext"},
	"thrift/dynamic": {"thrift/idl", "thrift/wire", "internal/utf8x", "internal/errtext",
		"internal/pathsyntax", "internal/pool"},
	"thrift/transcode": {"thrift/idl", "thrift/wire", "thrift/dynamic", "internal/jsonx",
		"internal/utf8x", "internal/pathsyntax"},
	// The only Thrift package on the network: wire and idl, and the stdlib.
	"thrift/client": {"thrift/wire", "thrift/idl", "internal/sysconn"},
	// The Thrift load target of bench and the demo: thrift/client timed by
	// load.
	"thrift/loadtarget": {"thrift/client", "thrift/wire", "thrift/idl", "load"},
	// A Thrift call from JSON, for call --idl and the ui: the engine and
	// its client.
	"thrift/invoke": {"thrift/idl", "thrift/wire", "thrift/dynamic", "thrift/transcode", "thrift/client"},

	// Leaves under dynamic and transcode: the standard library and x/sys/cpu.
	"internal/utf8x":   {},
	"internal/errtext": {},
	// JSON numbers, strings and base64 of transcode and thrift/transcode:
	// the standard library and internal/utf8x.
	"internal/jsonx": {"internal/utf8x"},
	// The path syntax of dynamic and thrift/dynamic: the standard library only.
	"internal/pathsyntax": {},
	// The typed pool of both dynamics' Docs: the standard library only.
	"internal/pool": {},
	// A leaf under gateway, ui and server: the standard library only.
	"internal/bodytimeout": {},
	// Both gateways' HTTP metrics: the standard library and Prometheus's client.
	"internal/gwmetrics": {},
	// A leaf under invoke/lean and thrift/client: the standard library only.
	"internal/sysconn": {},
	// bench's HTTP/1.1 client for http:// URLs: the standard library and
	// internal/sysconn.
	"internal/leanhttp": {"internal/sysconn"},

	// BenchService served for tests (Apache's Go and Python servers, a
	// server in another process); tests alone import it.
	"internal/thrifttest": {"internal/thriftfixture", "internal/gen", "thrift/client", "thrift/wire"},

	// The --docs page's embedded files: the standard library only.
	"gateway/apidocs": {},

	// bench's --target-metrics: a service's Prometheus endpoint scraped
	// (prometheus/common's parser) and summed up into load's ServerStats.
	"internal/promscrape": {"load"},
}

func TestImportRules(t *testing.T) {
	for _, p := range listPackages(t) {
		root := ruleFor(p.path)
		if root == "" {
			continue
		}
		for _, imp := range p.local() {
			if under(imp, root) || slices.ContainsFunc(allowed[root], func(a string) bool { return under(imp, a) }) {
				continue
			}
			if strings.HasPrefix(imp, "internal/gen/") && strings.HasSuffix(p.path, "test") {
				continue
			}
			t.Errorf("%s imports %s; %s may import only %v", p.path, imp, root, allowed[root])
		}
	}
}

func ruleFor(path string) string {
	best := ""
	for root := range allowed {
		if under(path, root) && len(root) > len(best) {
			best = root
		}
	}
	return best
}

func TestOnlyCmdImportsCLI(t *testing.T) {
	for _, p := range listPackages(t) {
		for _, imp := range p.local() {
			if under(imp, "internal/cli") && p.path != "cmd/rpckit" && !under(p.path, "internal/cli") {
				t.Errorf("%s imports internal/cli; only cmd/rpckit may", p.path)
			}
			if under(imp, "examples") && !under(p.path, "examples") && !under(p.path, "internal/cli") {
				t.Errorf("%s imports %s; the library never imports the examples", p.path, imp)
			}
		}
	}
}

// oracleUsers may import protojson and internal/oracle outside tests: the
// oracle itself and the baselines that measure or check against it.
var oracleUsers = []string{"internal/oracle", "internal/conformance/protojsontestee", "bench/internal/gwbench"}

// TestProtoJSONOnlyAsOracle: the tools convert with transcode; protojson
// is the oracle of tests and baselines, never on a tool's path.
func TestProtoJSONOnlyAsOracle(t *testing.T) {
	for _, p := range listPackages(t) {
		if slices.ContainsFunc(oracleUsers, func(u string) bool { return under(p.path, u) }) {
			continue
		}
		for _, imp := range p.imports {
			if imp == "google.golang.org/protobuf/encoding/protojson" || imp == module+"/internal/oracle" {
				t.Errorf("%s imports %s; only tests and baselines may", p.path, imp)
			}
		}
	}
}

// testOnly are the packages only tests may import.
var testOnly = []string{"internal/thrifttest"}

// TestTestOnlyPackages: no package imports a test-support package outside
// its tests (go list's Imports leave the tests' out).
func TestTestOnlyPackages(t *testing.T) {
	for _, p := range listPackages(t) {
		for _, imp := range p.local() {
			if slices.Contains(testOnly, imp) {
				t.Errorf("%s imports %s; only tests may", p.path, imp)
			}
		}
	}
}
