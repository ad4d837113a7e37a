// Package rpctest runs the fixture gRPC service (rpckit.test.v1.Test) in
// process on loopback TCP or a Unix socket, with health, reflection, TLS or
// mTLS as asked, the same service on connect-go (Connect, gRPC-Web, gRPC)
// for the web protocols' clients, and makes certificates at test time. It
// is for rpckit's own tests.
package rpctest
