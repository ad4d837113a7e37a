// Package gateway is an http.Handler that puts REST/JSON (and gRPC-Web) in
// front of any gRPC service, from descriptors loaded at run time: routes
// come from google.api.http annotations, and every method is also served at
// POST /pkg.Service/Method. No generated code.
//
// gateway may import rpckit's transcode, invoke, schema and dynamic
// packages, grpc-go and protobuf-go.
package gateway
