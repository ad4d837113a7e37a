// Package loadtarget builds the load target of a Thrift function: the one
// load.Target that `rpckit bench --idl` (and the demo's Thrift row) times,
// over a thrift/client pool, with the arguments struct encoded once, each
// call's reply read for its outcome (success, a declared exception by
// name, an application exception by type), and no allocation per call.
//
// loadtarget may import thrift/client, thrift/wire, thrift/idl and load
// (which has no RPC in it); it reaches the network only through
// thrift/client.
package loadtarget
