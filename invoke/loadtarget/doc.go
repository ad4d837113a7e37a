// Package loadtarget builds the load target of a gRPC method: the one
// load.Target that `rpckit bench`, the web page's load tests and the demo
// time, on either engine (invoke/lean, the default, or grpc-go through
// invoke), with the requests encoded once, metadata, pacing between the
// messages of a stream, and each response message's latency recorded for
// streams. Both engines report failed calls the same way (*invoke.Error),
// labelled by Code.
//
// loadtarget may import invoke, invoke/lean and load (which has no gRPC in
// it); load cannot import it back.
package loadtarget
