// Package client is a Thrift client over []byte messages: the caller
// gives the encoded arguments struct of a call and gets back the encoded
// result struct, with no generated code and no IDL at run time.
//
// A [Client] speaks the binary or compact protocol ([wire.Binary],
// [wire.Compact]) over a framed, buffered (unframed) or header (THeader)
// transport, on TCP or a unix socket, with or without TLS. Binary message
// headers are strict unless [Options].NonStrict is set; a multiplexed
// service name prefixes method names as "Service:method". Sequence ids are
// checked on every reply; a reply of type EXCEPTION becomes an
// [*ApplicationError] carrying the Apache exception type. Declared
// exceptions arrive in the result struct: [ResultField] tells which of its
// fields is set (0 for success).
//
// Calls share a pool of at most [Options].MaxConns connections; a call
// waits for a free one as long as its context allows. Deadlines come from
// the context (or [Options].Timeout) and bound every read and write; a
// connection that failed, timed out or saw a reply out of sequence is
// closed, never reused. Buffers live on the connection, so a call makes no
// allocation once its connection is warm, when its context is a background
// one or one that calls share (a load run's); a context made for one call
// costs the few allocations of context.AfterFunc.
//
// Package client is the only Thrift package that touches the network; it
// imports thrift/wire, internal/sysconn (a socket's reads and writes as raw
// system calls) and the standard library.
package client
