// Package transcode converts between protobuf wire bytes and canonical
// proto3 JSON in a single pass, over the flat type tables of package
// dynamic: no intermediate message, map or interface boxing. Output is
// appended to a buffer the caller may supply. The mapping is protojson's
// (the proto3 JSON spec), all of it, including the well-known types, proto2
// groups and extensions in "[pkg.ext]" form, and Any through a Resolver.
//
// Marshal turns wire bytes into JSON, Unmarshal JSON into wire bytes; a
// Decoder reads a stream of JSON messages one at a time.
//
// transcode may import the standard library, protobuf-go (protowire,
// protoreflect, protoregistry) and rpckit's wire, dynamic, internal/utf8x
// and internal/errtext packages. No gRPC, no network, no os.
package transcode
