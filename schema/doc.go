// Package schema finds protobuf descriptors for the rest of rpckit: from .proto
// files compiled at run time, from protosets (FileDescriptorSets, which also
// covers buf images), and from gRPC server reflection (v1 with a v1alpha
// fallback). Every origin is a Source, and Sources merge.
//
// The well-known types and the google/api and google/rpc protos are bundled,
// so imports of them resolve without any files on disk.
//
// schema may import grpc-go (for reflection) and protobuf-go, and of rpckit's
// packages only internal/errtext, a leaf, for its suggestions.
package schema
