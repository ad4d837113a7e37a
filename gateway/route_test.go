package gateway

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rpckit/rpckit/schema"
	"google.golang.org/protobuf/reflect/protoreflect"
)

func compileServices(t *testing.T, src string) []protoreflect.ServiceDescriptor {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "s.proto"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	files, err := schema.CompileFiles(context.Background(), schema.CompileOptions{Files: []string{"s.proto"}, ImportPaths: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	fd, _ := files.FindFileByPath("s.proto")
	var out []protoreflect.ServiceDescriptor
	for i := range fd.Services().Len() {
		out = append(out, fd.Services().Get(i))
	}
	return out
}

const header = `syntax = "proto3";
package p;
import "google/api/annotations.proto";
message M { string name = 1; int32 n = 2; M child = 3; }
`

func TestRouteConflicts(t *testing.T) {
	services := compileServices(t, header+`service S {
  rpc A(M) returns (M) { option (google.api.http) = {get: "/v1/{name}"}; }
  rpc B(M) returns (M) { option (google.api.http) = {get: "/v1/{child.name}"}; }
  rpc C(M) returns (M) { option (google.api.http) = {post: "/v1/{name}" body: "*"}; }
}`)
	routes, err := RoutesOf(services)
	if err != nil {
		t.Fatal(err)
	}
	_, err = newRouter(routes)
	if err == nil || !strings.Contains(err.Error(), "GET /v1/{child.name} -> p.S.B conflicts with GET /v1/{name} -> p.S.A") {
		t.Fatalf("err %v, want the GET conflict", err)
	}
	if strings.Contains(err.Error(), "p.S.C") {
		t.Fatalf("POST reported as a conflict: %v", err)
	}
}

func TestRouteErrors(t *testing.T) {
	for _, tc := range []struct{ rule, want string }{
		{`get: "/v1/{nope}"`, `p.S.A: path /v1/{nope}: field "nope": p.M has no field "nope"`},
		{`post: "/v1/x" body: "nope"`, `body: field "nope": p.M has no field "nope"`},
		{`get: "/v1/x" response_body: "nope"`, `response_body: field "nope"`},
		{`get: "/v1/{name.x}"`, `"name" is not a message`},
		{`get: "v1"`, `col 1: must start with /`},
	} {
		services := compileServices(t, header+`service S { rpc A(M) returns (M) { option (google.api.http) = {`+tc.rule+`}; } }`)
		_, err := RoutesOf(services)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want %q", tc.rule, err, tc.want)
		}
	}
}

func TestRouteSpecificity(t *testing.T) {
	services := compileServices(t, header+`service S {
  rpc A(M) returns (M) { option (google.api.http) = {get: "/v1/{name=**}"}; }
  rpc B(M) returns (M) { option (google.api.http) = {get: "/v1/special"}; }
  rpc C(M) returns (M) { option (google.api.http) = {get: "/v1/{name}:run"}; }
}`)
	routes, _ := RoutesOf(services)
	rt, err := newRouter(routes)
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{"/v1/special": "B", "/v1/other/deep": "A", "/v1/x:run": "C"} {
		r, _, code, _ := rt.match("GET", path)
		if code != 200 || string(r.Method.Name()) != want {
			t.Errorf("%s: %v %d, want %s", path, r, code, want)
		}
	}
}
