// Package lean is a gRPC client that speaks HTTP/2 itself, for load
// generation: golang.org/x/net/http2's Framer and hpack directly on a
// net.Conn (h2c with prior knowledge, or TLS with ALPN h2), no grpc-go in
// the hot path.
//
// Everything that can be done once is: a Method's HEADERS block is encoded
// once per connection (after the first call it is a handful of indexes
// into the HPACK dynamic table; only the stream id and grpc-timeout vary),
// and a Message carries its 5-byte gRPC prefix from the start, so a call
// copies prepared bytes into the connection's write buffer. One reader
// goroutine per connection demultiplexes frames to streams by id (taking
// the common DATA and HEADERS frames straight from its read buffer, the
// rest through the Framer) and parses trailers for grpc-status; one writer goroutine flushes the frames
// of all the calls that became ready together in one write. On Linux both
// use raw system calls on the non-blocking socket (internal/sysconn). Stream
// structs are pooled and a unary call allocates next to nothing; a
// CallOptions.Timeout bounds a call without a context of its own.
//
// The transport honours HTTP/2: connection and stream flow-control windows
// both ways (WINDOW_UPDATE sent in batches as data is consumed), the
// peer's INITIAL_WINDOW_SIZE, MAX_FRAME_SIZE (large messages are split)
// and MAX_CONCURRENT_STREAMS (calls queue at the limit), PING, GOAWAY (no
// new streams on that connection; the next call dials a new one, and calls
// the server did not process are retried there), RST_STREAM on
// cancellation or deadline, and optional keepalive pings.
//
// It offers what a load generator needs: Conn.Call makes one call of any
// kind (unary, server streaming, client streaming, bidi) with its requests
// prepared beforehand, paced when asked, and its response messages handed
// to a callback as they arrive. Failed calls return an *Error with the gRPC
// status, which status.FromError understands. For everything else (service
// config, load balancing, credentials plugins) use package invoke.
//
// A Method made with MethodOptions.GRPCWeb speaks gRPC-Web over the same
// HTTP/2 connection instead: its content type, and the status read from
// the trailer frame that ends the body (or from the headers of a response
// without one). One made with MethodOptions.Connect makes the Connect
// protocol's unary calls: the message bare, the status from the HTTP one
// and a JSON error body.
//
// lean may import golang.org/x/net/http2 and its hpack, and grpc-go's
// codes, status and metadata types for its API; not grpc-go's transport.
package lean
