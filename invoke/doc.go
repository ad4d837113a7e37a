// Package invoke makes dynamic gRPC calls: any method of any service, by
// descriptor, with no generated code. Requests and responses stay protobuf
// wire bytes (a raw-bytes codec on grpc-go); converting them to and from
// JSON goes through the JSONCodec seam. It covers unary, server streaming,
// client streaming and bidi calls, metadata both ways, deadlines, TLS and
// mTLS, and failed calls as typed errors with their status details.
//
// invoke may import grpc-go, protobuf-go, and rpckit's schema, dynamic and
// transcode packages.
package invoke
