package conformance

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/rpckit/rpckit/schema"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// SourceEnv names the environment variable that gives the testees the
// root of protobuf's source tree when no flag does.
const SourceEnv = "RPCKIT_CONFORMANCE_PROTOBUF_SRC"

// CompileProtos compiles conformance.proto and the proto2 and proto3 test
// message files from protobuf's source tree at root, with rpckit's schema
// package.
func CompileProtos(ctx context.Context, root string) (*protoregistry.Files, error) {
	if root == "" {
		return nil, fmt.Errorf("conformance: no protobuf source tree ($%s)", SourceEnv)
	}
	conf := filepath.Join(root, "conformance")
	src := filepath.Join(root, "src")
	return schema.CompileFiles(ctx, schema.CompileOptions{
		Files: []string{
			filepath.Join(conf, "conformance.proto"),
			filepath.Join(src, "google/protobuf/test_messages_proto2.proto"),
			filepath.Join(src, "google/protobuf/test_messages_proto3.proto"),
		},
		ImportPaths: []string{conf, src},
	})
}

// FindMessage returns the descriptor of the message named name in files.
func FindMessage(files *protoregistry.Files, name string) (protoreflect.MessageDescriptor, error) {
	d, err := files.FindDescriptorByName(protoreflect.FullName(name))
	if err != nil {
		return nil, fmt.Errorf("conformance: message %q: %w", name, err)
	}
	md, ok := d.(protoreflect.MessageDescriptor)
	if !ok {
		return nil, fmt.Errorf("conformance: %q is not a message", name)
	}
	return md, nil
}
