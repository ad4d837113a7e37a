package rpctest

import (
	"os"

	testv1 "github.com/rpckit/rpckit/internal/gen/rpckit/test/v1"
	"github.com/rpckit/rpckit/schema"
	"google.golang.org/protobuf/proto"
)

// WriteProtoset writes a FileDescriptorSet of the fixture service's file
// and its imports to path.
func WriteProtoset(path string) error {
	b, err := proto.Marshal(schema.Protoset(testv1.File_rpckit_test_v1_test_proto))
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}
