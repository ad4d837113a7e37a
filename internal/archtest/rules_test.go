package archtest

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// root is the module root, from this package's directory.
const root = "../.."

// TestExamplesUsePublicAPI: examples/ranking is written as a user of the
// module would write it, so it imports none of the module's internal
// packages (its own are fine).
func TestExamplesUsePublicAPI(t *testing.T) {
	for _, p := range listPackages(t) {
		if under(p.path, "examples") {
			for _, v := range internalImports(p.path, p.imports) {
				t.Error(v)
			}
		}
	}
}

// globalsAllowed lists, for the pure packages, the package-level variables
// they may hold and why. Tables computed once at init and never written,
// sentinel errors and pools are fine; a cache says who owns it and what
// bounds it; mutable state of any other kind is not.
var globalsAllowed = map[string]map[string]string{
	"wire": {
		"codeText": "table: the text of each Code",
	},
	"dynamic": {
		"errValue":     "sentinel error, never written",
		"defaultCache": "the Cache of TypeOf: compiled Types keyed by descriptor, one per message type the process uses (Cache.Drop or a Cache of one's own bounds it)",
	},
	"transcode": {
		"building":  "serializes building a Type's JSON plan, which is attached to the Type (dynamic's cache owns it)",
		"scratches": "sync.Pool of encoder scratch space, safe for concurrent use",
		"outputs":   "sync.Pool of output buffers, safe for concurrent use",
		"errAgain":  "sentinel error, never written",
	},
	"internal/jsonx": {
		"base64Values": "table computed at init: base64 digit values",
		"base64Pairs":  "table computed at init: two base64 digits per 12 bits",
		"powers10":     "table: powers of ten",
		"pow10":        "table: float64 powers of ten",
		"pow10f32":     "table: float32 powers of ten",
		"pow10Inv":     "table: inverse powers of ten for float printing",
	},
	"thrift/idl": {
		"containerKinds": "table: container keywords",
		"escapes":        "table: string escapes",
		"intRanges":      "table: integer range of each kind",
		"kindNames":      "table: the name of each Kind",
		"baseKinds":      "table: base type keywords",
		"keywords":       "table: reserved words",
		"legacy":         "table: legacy namespace scopes",
		"literalInt":     "the fixed type of an integer literal, never written",
		"literalDouble":  "the fixed type of a double literal, never written",
		"literalString":  "the fixed type of a string literal, never written",
	},
	"thrift/transcode": {
		"intBits": "table: the bit size of each integer kind",
	},
	"thrift/client": {
		"exceptionNames":       "table: the Apache name of each application exception type",
		"ErrFrameTooLarge":     "sentinel error, never written",
		"ErrClosed":            "sentinel error, never written",
		"errClosedBeforeReply": "sentinel error, never written",
	},
	"thrift/wire": {
		"fromCompact": "table: the Type of each compact type code",
		"toCompact":   "table: the compact type code of each Type",
		"width16":     "constant varint width of i16, never written",
		"width32":     "constant varint width of i32, never written",
		"width64":     "constant varint width of i64, never written",
		"codeText":    "table: the text of each Code",
		"typeNames":   "table: the name of each Type",
		"binarySize":  "table: the binary size of each fixed-size Type",
	},
}

// TestNoNewGlobals: wire, dynamic, transcode, thrift and internal/jsonx hold no package
// state beyond the documented tables, sentinels, pools and caches above.
func TestNoNewGlobals(t *testing.T) {
	for _, top := range []string{"wire", "dynamic", "transcode", "thrift", "internal/jsonx"} {
		dirs, err := goDirs(filepath.Join(root, top))
		if err != nil {
			t.Fatal(err)
		}
		for _, dir := range dirs {
			files, fset, err := parseDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(root, dir)
			for _, v := range packageVars(rel, files, fset, globalsAllowed[filepath.ToSlash(rel)]) {
				t.Error(v)
			}
		}
	}
}

// TestNoInitPanics: no init function in the module can panic or exit; an
// init that can fail has no one to report to.
func TestNoInitPanics(t *testing.T) {
	dirs, err := goDirs(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range dirs {
		files, fset, err := parseDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range initPanics(files, fset) {
			t.Error(v)
		}
	}
}

// libraries are the packages a user of the module imports: their exported
// APIs use only the standard library, protobuf-go and grpc-go types.
var libraries = []string{"wire", "dynamic", "transcode", "schema", "invoke", "load", "interceptor", "server", "gateway", "ui", "thrift"}

// TestAPITypes: third-party types stay inside the library packages.
func TestAPITypes(t *testing.T) {
	var patterns []string
	for _, l := range libraries {
		patterns = append(patterns, "./"+l+"/...")
	}
	pkgs, err := loadTypes(root, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		path := strings.TrimPrefix(p.Path(), module+"/")
		if slices.Contains(strings.Split(path, "/"), "internal") {
			continue
		}
		for _, v := range foreignAPITypes(p) {
			t.Error(v)
		}
	}
}
