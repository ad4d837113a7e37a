package scaffold

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBinaryName(t *testing.T) {
	for module, want := range map[string]string{
		"example.com/echo":         "echo",
		"example.com/acme/echo/v2": "echo",
		"Echo_Server":              "echo-server",
		"example.com/__":           "service",
	} {
		if got := binaryName(module); got != want {
			t.Errorf("binaryName(%q) = %q, want %q", module, got, want)
		}
	}
}

func TestCheckModulePath(t *testing.T) {
	for _, ok := range []string{"echo", "example.com/echo", "github.com/acme/Echo-svc/v2"} {
		if err := checkModulePath(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "/echo", "echo/", "Echo", "a b", "example.com/../x", "example.com//x"} {
		if err := checkModulePath(bad); err == nil {
			t.Errorf("%q: accepted", bad)
		}
	}
}

// writeProtos writes .proto files under a new import path.
func writeProtos(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestPackagesAndAliases: stubs go under gen/ by proto package (a file
// without one by its name), whatever go_package says; two packages with
// the same Go name get distinct aliases, and same-named services distinct
// handler types and files.
func TestPackagesAndAliases(t *testing.T) {
	protos := writeProtos(t, map[string]string{
		"a/v1/svc.proto": `syntax = "proto3"; package a.v1; option go_package = "elsewhere/x;x";
			import "nopkg.proto"; service Store { rpc Get(N) returns (N); }`,
		"b/v1/svc.proto": `syntax = "proto3"; package b.v1; import "nopkg.proto"; message M {}
			service Store { rpc Put(stream M) returns (N); }`,
		"c/a/v1/x.proto": `syntax = "proto3"; package c.a.v1; message M {} service Other { rpc Do(M) returns (M); }`,
		"nopkg.proto":    `syntax = "proto3"; message N {}`,
	})
	dir := filepath.Join(t.TempDir(), "mod")
	_, err := Generate(context.Background(), Options{Dir: dir, ImportPaths: []string{protos}, Module: "example.com/m",
		Protos: []string{"a/v1/svc.proto", "b/v1/svc.proto", "c/a/v1/x.proto"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"gen/a/v1/svc.pb.go", "gen/b/v1/svc_grpc.pb.go", "gen/c/a/v1/x.pb.go", "gen/nopkg/nopkg.pb.go",
		"handler/store.go", "handler/bv1_store.go", "handler/other.go", "proto/nopkg.proto"} {
		if !exists(dir, name) {
			t.Errorf("%s: not written", name)
		}
	}
	main := readFile(t, dir, "main.go")
	for _, want := range []string{`av1 "example.com/m/gen/a/v1"`, `bv1 "example.com/m/gen/b/v1"`, `av12 "example.com/m/gen/c/a/v1"`,
		"av1.RegisterStoreServer(srv, &handler.Store{})", "bv1.RegisterStoreServer(srv, &handler.Bv1Store{})",
		"av12.RegisterOtherServer(srv, &handler.Other{})"} {
		if !strings.Contains(main, want) {
			t.Errorf("main.go has no %q:\n%s", want, main)
		}
	}
	if h := readFile(t, dir, "handler/bv1_store.go"); !strings.Contains(h, "grpc.ClientStreamingServer[bv1.M, nopkg.N]") {
		t.Errorf("handler/bv1_store.go:\n%s", h)
	}
}

// TestBadInput: errors name what is wrong, and nothing is written.
func TestBadInput(t *testing.T) {
	protos := writeProtos(t, map[string]string{
		"bad.proto":    "syntax = \"proto3\";\nmessage {}\n",
		"nosvc.proto":  `syntax = "proto3"; message M {}`,
		"good.proto":   `syntax = "proto3"; package g; message M {} service S { rpc Do(M) returns (M); }`,
		"nodir/.keep":  "",
		"file-not-dir": "",
		"x/svc.proto":  `syntax = "proto3"; package same; service A { rpc Do(M) returns (M); } message M {}`,
		"y/svc.proto":  `syntax = "proto3"; package same; service B { rpc Do(N) returns (N); } message N {}`,
	})
	for _, tc := range []struct {
		name string
		opts Options
		want string
	}{
		{"no dir", Options{Protos: []string{"good.proto"}}, "no directory"},
		{"no proto", Options{Dir: "x"}, "no .proto file"},
		{"syntax", Options{Protos: []string{"bad.proto"}}, "bad.proto:2:"},
		{"missing", Options{Protos: []string{"missing.proto"}}, "missing.proto"},
		{"no service", Options{Protos: []string{"nosvc.proto"}}, "no service to serve"},
		{"module", Options{Protos: []string{"good.proto"}, Module: "Bad Path"}, "not a valid Go module path"},
		{"same names", Options{Protos: []string{"x/svc.proto", "y/svc.proto"}}, "both generate gen/same/svc.pb.go"},
		{"update nothing", Options{Protos: []string{"good.proto"}, Update: true}, "no module to update"},
		{"dir is a file", Options{Dir: filepath.Join(protos, "file-not-dir"), Protos: []string{"good.proto"}, Module: "m"}, "not a directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := tc.opts
			opts.ImportPaths = []string{protos}
			if opts.Dir == "" && tc.name != "no dir" {
				opts.Dir = filepath.Join(t.TempDir(), "mod")
			}
			_, err := Generate(context.Background(), opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if opts.Dir != "" && exists(opts.Dir, "go.mod") {
				t.Error("go.mod written")
			}
		})
	}
}

// TestUpdateModuleMismatch: Update with a module path other than go.mod's
// fails before writing.
func TestUpdateModuleMismatch(t *testing.T) {
	dir := t.TempDir()
	generateFixture(t, dir, false)
	_, err := Generate(context.Background(), Options{Dir: dir, Protos: []string{"acme/echo/v1/echo.proto"},
		ImportPaths: []string{"testdata/proto"}, Module: "example.com/other", Update: true})
	if err == nil || !strings.Contains(err.Error(), `differs from "example.com/echo"`) {
		t.Fatalf("err = %v", err)
	}
}

// TestGenerateIsStable: the same input writes the same bytes, whatever
// the order the compiler's registry holds the files in.
func TestGenerateIsStable(t *testing.T) {
	protos := writeProtos(t, map[string]string{
		"a/v1/svc.proto": `syntax = "proto3"; package a.v1; import "z.proto"; service Store { rpc Get(Z) returns (Z); }`,
		"b/v1/svc.proto": `syntax = "proto3"; package b.v1; import "z.proto"; service Store { rpc Put(Z) returns (Z); }`,
		"c/v1/svc.proto": `syntax = "proto3"; package c.v1; service Store { rpc Del(M) returns (M); } message M {}`,
		"z.proto":        `syntax = "proto3"; message Z {}`,
	})
	var first map[string]string
	for range 8 {
		dir := t.TempDir()
		_, err := Generate(context.Background(), Options{Dir: dir, ImportPaths: []string{protos}, Module: "example.com/m",
			Protos: []string{"a/v1/svc.proto", "b/v1/svc.proto", "c/v1/svc.proto"}})
		if err != nil {
			t.Fatal(err)
		}
		files := readTree(t, dir)
		if first == nil {
			first = files
			continue
		}
		for name, data := range files {
			if first[name] != data {
				t.Fatalf("%s differs between two runs", name)
			}
		}
		if len(files) != len(first) {
			t.Fatalf("%d files, then %d", len(first), len(files))
		}
	}
}

func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		out[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
