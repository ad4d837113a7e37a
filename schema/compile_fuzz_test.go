package schema_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/rpckit/rpckit/schema"
)

var positioned = regexp.MustCompile(`^[^:]+\.proto:\d+:\d+: `)

// FuzzCompile: any .proto source compiles or gives positioned errors; it
// never panics.
func FuzzCompile(f *testing.F) {
	for _, s := range []string{
		"syntax = \"proto3\";\npackage p;\nmessage M { string a = 1; map<string, M> m = 2; }\n",
		"syntax = \"proto2\";\nmessage G { optional group X = 1 { required int32 y = 2; } extensions 10 to 20; }\nextend G { optional int32 e = 10; }\n",
		"syntax = \"proto3\";\nimport \"google/api/annotations.proto\";\nservice S { rpc M(E) returns (E) { option (google.api.http) = {get: \"/x\"}; } }\nmessage E {}\n",
		"edition = \"2023\";\nmessage M { int32 a = 1 [features.field_presence = IMPLICIT]; }\n",
		"message {",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "f.proto"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := schema.Compile(context.Background(), schema.CompileOptions{Files: []string{"f.proto"}, ImportPaths: []string{dir}})
		var ce *schema.CompileError
		if errors.As(err, &ce) {
			for _, e := range ce.Errs {
				if !positioned.MatchString(e.Error()) {
					t.Fatalf("error without a position: %v", e)
				}
			}
		}
	})
}
