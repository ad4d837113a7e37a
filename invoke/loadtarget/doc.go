// Package loadtarget builds the load target of a gRPC method: the one
// load.Target that `rpckit bench`, the web page's load tests and the demo
// time, on one of its engines (invoke/lean, the default, grpc-go through
// invoke, or connect-go through invoke for gRPC-Web and Connect), with the requests encoded once, metadata, pacing between the
// messages of a stream, and each response message's latency recorded for
// streams. Every engine reports failed calls the same way (*invoke.Error),
// labelled by Code.
//
// loadtarget may import invoke, invoke/lean and load (which has no gRPC in
// it); load cannot import it back.
package loadtarget
