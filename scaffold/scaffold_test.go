package scaffold

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const fixtureModule = "example.com/echo"

func generateFixture(t *testing.T, dir string, update bool) *Result {
	t.Helper()
	res, err := Generate(context.Background(), Options{Dir: dir, Protos: []string{"acme/echo/v1/echo.proto"},
		ImportPaths: []string{"testdata/proto"}, Module: fixtureModule, Update: update})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func readFile(t *testing.T, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestVersionsMatchGoMod: the written go.mod requires what rpckit's does.
func TestVersionsMatchGoMod(t *testing.T) {
	gomod := readFile(t, "..", "go.mod")
	for _, want := range []string{"\ngo " + goVersion + "\n", "google.golang.org/grpc " + grpcVersion + "\n",
		"google.golang.org/protobuf " + protobufVersion + "\n"} {
		if !strings.Contains(gomod, want) {
			t.Errorf("rpckit's go.mod has no %q: update versions.go", strings.TrimSpace(want))
		}
	}
}

// TestGenerateWritesModule: the module's files are there, its handler
// answers every method of the four call kinds with UNIMPLEMENTED, and
// main.go registers it on server.New.
func TestGenerateWritesModule(t *testing.T) {
	dir := t.TempDir()
	res := generateFixture(t, dir, false)
	for _, name := range []string{"go.mod", "main.go", "Makefile", "Dockerfile", "README.md", "deploy/echo.yaml",
		"handler/echo.go", "handler/echo_test.go", "gen/acme/echo/v1/echo.pb.go", "gen/acme/echo/v1/types.pb.go",
		"gen/acme/echo/v1/echo_grpc.pb.go", "proto/acme/echo/v1/echo.proto", "proto/acme/echo/v1/types.proto",
		"deploy/grafana/rpckit-service.json", "deploy/prometheus/rpckit-slo.yaml"} {
		if !exists(dir, name) {
			t.Errorf("%s: not written (wrote %v)", name, res.Written)
		}
	}
	handler := readFile(t, dir, "handler/echo.go")
	for _, want := range []string{
		"func (h *Echo) Say(ctx context.Context, req *echov1.Message) (*echov1.Message, error)",
		"func (h *Echo) Repeat(req *echov1.RepeatRequest, stream grpc.ServerStreamingServer[echov1.Message]) error",
		"func (h *Echo) Collect(stream grpc.ClientStreamingServer[echov1.Message, echov1.Message]) error",
		"func (h *Echo) Chat(stream grpc.BidiStreamingServer[echov1.Message, echov1.Message]) error",
		"func (h *Echo) Ping(ctx context.Context, req *emptypb.Empty) (*emptypb.Empty, error)",
	} {
		if !strings.Contains(handler, want) {
			t.Errorf("handler/echo.go has no %q", want)
		}
	}
	if n := strings.Count(handler, "codes.Unimplemented"); n != 5 {
		t.Errorf("handler/echo.go: %d methods answer Unimplemented, want 5", n)
	}
	main := readFile(t, dir, "main.go")
	for _, want := range []string{"server.New(opts)", "echov1.RegisterEchoServer(srv, &handler.Echo{})",
		"signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)", "srv.Serve(ctx)"} {
		if !strings.Contains(main, want) {
			t.Errorf("main.go has no %q", want)
		}
	}
	if gomod := readFile(t, dir, "go.mod"); !strings.HasPrefix(gomod, "module "+fixtureModule+"\n") {
		t.Errorf("go.mod:\n%s", gomod)
	}
}

// TestGenerateRefusesModule: a second Generate without Update writes
// nothing over the first.
func TestGenerateRefusesModule(t *testing.T) {
	dir := t.TempDir()
	generateFixture(t, dir, false)
	_, err := Generate(context.Background(), Options{Dir: dir, Protos: []string{"acme/echo/v1/echo.proto"},
		ImportPaths: []string{"testdata/proto"}})
	if err == nil || !strings.Contains(err.Error(), "holds a module already") {
		t.Fatalf("err = %v, want a module already there", err)
	}
}

// TestUpdateKeepsHandlers: after the .proto gains a method, Update
// regenerates the stubs (the method is in them), keeps the edited handler
// and its test as they are, and reads the module path from go.mod.
func TestUpdateKeepsHandlers(t *testing.T) {
	dir := t.TempDir()
	generateFixture(t, dir, false)
	edited := readFile(t, dir, "handler/echo.go") + "\n// written by hand\n"
	if err := os.WriteFile(filepath.Join(dir, "handler", "echo.go"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	proto := readFile(t, dir, "proto/acme/echo/v1/echo.proto")
	proto = strings.Replace(proto, "  rpc Ping(", "  rpc Shout(Message) returns (Message);\n  rpc Ping(", 1)
	if err := os.WriteFile(filepath.Join(dir, "proto/acme/echo/v1/echo.proto"), []byte(proto), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Generate(context.Background(), Options{Dir: dir, Protos: []string{"acme/echo/v1/echo.proto"},
		ImportPaths: []string{filepath.Join(dir, "proto")}, Update: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Module != fixtureModule {
		t.Errorf("module %q, want %q from go.mod", res.Module, fixtureModule)
	}
	if got := readFile(t, dir, "handler/echo.go"); got != edited {
		t.Errorf("handler/echo.go changed by Update:\n%s", got)
	}
	if stubs := readFile(t, dir, "gen/acme/echo/v1/echo_grpc.pb.go"); !strings.Contains(stubs, "Shout(context.Context, *Message) (*Message, error)") {
		t.Error("the new method Shout is not in the stubs")
	}
	for _, name := range res.Written {
		if !strings.HasPrefix(name, "gen/") {
			t.Errorf("Update wrote %s", name)
		}
	}
}

// TestMainFlagsCoverManifest: every flag the manifest passes is one that
// main.go defines.
func TestMainFlagsCoverManifest(t *testing.T) {
	dir := t.TempDir()
	generateFixture(t, dir, false)
	defined := map[string]bool{}
	for _, m := range regexp.MustCompile(`fs\.\w+\([^,]+, "([a-z-]+)"`).FindAllStringSubmatch(readFile(t, dir, "main.go"), -1) {
		defined[m[1]] = true
	}
	d := loadDeployment(t, dir, "echo")
	args := d.Spec.Template.Spec.Containers[0].Args
	if len(args) == 0 {
		t.Fatal("the container has no args")
	}
	for _, arg := range args {
		name, _, _ := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		if !defined[name] {
			t.Errorf("manifest flag %q is not defined by main.go (defines %v)", arg, defined)
		}
	}
}

// TestUpdateRemovesStaleStubs: Update removes the generated stubs no
// .proto file produces any more, and keeps other files under gen/.
func TestUpdateRemovesStaleStubs(t *testing.T) {
	dir := t.TempDir()
	generateFixture(t, dir, false)
	stale := "// Code generated by protoc-gen-go. DO NOT EDIT.\n\npackage echov1\n"
	own := "// Code generated by hand, not really. Keep me.\n\npackage echov1\n"
	for name, src := range map[string]string{"old.pb.go": stale, "old_grpc.pb.go": stale, "extra.pb.go": own, "extra.go": stale} {
		if err := os.WriteFile(filepath.Join(dir, "gen/acme/echo/v1", name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res := generateFixture(t, dir, true)
	if want := []string{"gen/acme/echo/v1/old.pb.go", "gen/acme/echo/v1/old_grpc.pb.go"}; !slices.Equal(res.Removed, want) {
		t.Errorf("removed %v, want %v", res.Removed, want)
	}
	for _, name := range []string{"extra.pb.go", "extra.go", "echo.pb.go", "types.pb.go", "echo_grpc.pb.go"} {
		if !exists(dir, "gen/acme/echo/v1/"+name) {
			t.Errorf("%s removed", name)
		}
	}
	if len(res.Written) != 0 {
		t.Errorf("Update with nothing changed wrote %v", res.Written)
	}
}

// TestModuleGetsMonitoring: the module's deploy/grafana and
// deploy/prometheus hold rpckit's own dashboards, rules and rule tests.
func TestModuleGetsMonitoring(t *testing.T) {
	dir := t.TempDir()
	generateFixture(t, dir, false)
	for _, sub := range []string{"grafana", "prometheus"} {
		files, err := filepath.Glob(filepath.Join("..", "deploy", sub, "*.*"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no files in deploy/%s (%v)", sub, err)
		}
		for _, f := range files {
			name := path.Join("deploy", sub, filepath.Base(f))
			if got, want := readFile(t, dir, name), readFile(t, "..", name); got != want {
				t.Errorf("%s differs from rpckit's; run make gen", name)
			}
		}
	}
}
