package schema_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	testv1 "github.com/rpckit/rpckit/internal/gen/rpckit/test/v1"
	"github.com/rpckit/rpckit/internal/rpctest"
	"github.com/rpckit/rpckit/schema"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"
)

func dialTest(t *testing.T, opts rpctest.Options) *grpc.ClientConn {
	t.Helper()
	srv, err := rpctest.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	cc, err := grpc.NewClient(srv.Addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cc.Close() })
	return cc
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestReflectionVersions(t *testing.T) {
	for _, tc := range []struct {
		server rpctest.Reflection
		want   string
	}{
		{rpctest.ReflectionBoth, "v1"},
		{rpctest.ReflectionV1Alpha, "v1alpha"},
	} {
		ctx := testContext(t)
		src := schema.Reflection(dialTest(t, rpctest.Options{Reflection: tc.server}), schema.ReflectionOptions{})
		md, err := schema.FindMethod(ctx, src, "rpckit.test.v1.Test/Chat")
		if err != nil {
			t.Fatal(err)
		}
		if !md.IsStreamingClient() || !md.IsStreamingServer() || md.Input().FullName() != "rpckit.test.v1.EchoRequest" {
			t.Errorf("Chat resolved wrong: %v", md)
		}
		if got := src.Version(); got != tc.want {
			t.Errorf("version %q, want %q", got, tc.want)
		}
		// The descriptor from reflection equals the compiled-in one.
		want := testv1.File_rpckit_test_v1_test_proto.Messages().ByName("Item")
		got := md.Input().Fields().ByName("item").Message()
		if !proto.Equal(protoDesc(got), protoDesc(want)) {
			t.Errorf("reflected Item differs from the generated one")
		}
		src.Close()
	}
}

func protoDesc(md protoreflect.MessageDescriptor) proto.Message {
	return protodesc.ToDescriptorProto(md)
}

func TestReflectionNotFound(t *testing.T) {
	ctx := testContext(t)
	src := schema.Reflection(dialTest(t, rpctest.Options{}), schema.ReflectionOptions{})
	defer src.Close()
	_, err := src.FindSymbol(ctx, "no.such.Thing")
	if !errors.Is(err, schema.ErrNotFound) {
		t.Fatalf("err %v, want ErrNotFound", err)
	}
	// Suggestions take the form of the name asked for.
	for name, want := range map[string]string{
		"rpckit.test.v1.Test/Coutn":  "rpckit.test.v1.Test/Count",
		"/rpckit.test.v1.Test/Coutn": "/rpckit.test.v1.Test/Count",
		"rpckit.test.v1.Test.Coutn":  "rpckit.test.v1.Test.Count",
	} {
		_, err = schema.FindMethod(ctx, src, name)
		var nf *schema.NotFoundError
		if !errors.As(err, &nf) || len(nf.Suggestions) == 0 || nf.Suggestions[0] != want {
			t.Errorf("%s: err %v, want a suggestion of %s", name, err, want)
		}
	}
}

func TestReflectionUnavailable(t *testing.T) {
	ctx := testContext(t)
	src := schema.Reflection(dialTest(t, rpctest.Options{Reflection: rpctest.ReflectionNone}), schema.ReflectionOptions{})
	defer src.Close()
	if _, err := src.Services(ctx); err == nil || !strings.Contains(err.Error(), "Unimplemented") {
		t.Fatalf("err %v, want Unimplemented", err)
	}
}

func TestProtosetRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.protoset")
	if err := rpctest.WriteProtoset(path); err != nil {
		t.Fatal(err)
	}
	src, err := schema.ReadProtosets(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := testContext(t)
	services, err := src.Services(ctx)
	if err != nil || len(services) != 1 || services[0] != "rpckit.test.v1.Test" {
		t.Fatalf("services %v, %v", services, err)
	}
	d, err := src.FindSymbol(ctx, "rpckit.test.v1.Item.counts")
	if err != nil || d.(protoreflect.FieldDescriptor).IsMap() != true {
		t.Fatalf("Item.counts: %v, %v", d, err)
	}
}

func TestCompileErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.proto", "syntax = \"proto3\";\nmessage A {\n  Missing m = 1;\n}\n")
	write("b.proto", "syntax = \"proto3\";\nmessage B {\n  int32 y = 1;\n  int32 x = 1;\n}\n")
	for file, want := range map[string]string{
		"a.proto": filepath.Join(dir, "a.proto") + `:3:3: field A.m: unknown type Missing`,
		"b.proto": filepath.Join(dir, "b.proto") + `:4:13: message B: fields y and x both have the same tag 1`,
	} {
		_, err := schema.Compile(testContext(t), schema.CompileOptions{Files: []string{file}, ImportPaths: []string{dir}})
		var ce *schema.CompileError
		if !errors.As(err, &ce) || err.Error() != "schema: "+want {
			t.Errorf("%s: err %v, want a CompileError %q", file, err, want)
		}
	}
}

// TestTemplateIsValidJSON: the template of every message in the fixture
// and bundled files is accepted by protojson.
func TestTemplateIsValidJSON(t *testing.T) {
	files := []protoreflect.FileDescriptor{testv1.File_rpckit_test_v1_test_proto}
	for _, path := range []string{"google/rpc/error_details.proto", "google/api/http.proto", "google/protobuf/struct.proto", "google/protobuf/any.proto", "google/protobuf/descriptor.proto"} {
		fd, err := protoregistry.GlobalFiles.FindFileByPath(path)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, fd)
	}
	for _, fd := range files {
		for i := range fd.Messages().Len() {
			md := fd.Messages().Get(i)
			tmpl := schema.Template(md)
			if err := protojson.Unmarshal(tmpl, dynamicpb.NewMessage(md)); err != nil {
				t.Errorf("%s: template rejected: %v\n%s", md.FullName(), err, tmpl)
			}
		}
	}
}
