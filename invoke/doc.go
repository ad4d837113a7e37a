// Package invoke makes dynamic gRPC calls: any method of any service, by
// descriptor, with no generated code. Requests and responses stay protobuf
// wire bytes (a raw-bytes codec on grpc-go); converting them to and from
// JSON goes through the JSONCodec seam. It covers unary, server streaming,
// client streaming and bidi calls, metadata both ways, deadlines, TLS and
// mTLS, and failed calls as typed errors with their status details.
//
// The same calls go over gRPC-Web or the Connect protocol when DialOptions
// ask (connect-go over net/http, HTTP/1.1 or HTTP/2, Connect's proto or
// json codec, GET for methods without side effects); their failures become
// the same *Error. Reflection and health stay gRPC.
//
// invoke may import grpc-go, connect-go, protobuf-go, and rpckit's schema,
// dynamic and transcode packages; connect-go's types stay inside.
package invoke
