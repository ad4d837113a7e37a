// Package leanhttp is a lean HTTP/1.1 client for load: one request, set
// once, sent again and again over a pool of keep-alive connections to a
// plain http:// URL. It is bench's engine for such URLs; https, HTTP/2,
// proxies and redirects are net/http's, which bench keeps for them.
//
// The request is serialised into bytes when the Client is made (method,
// path and query, Host, headers, Content-Length, body) and written with
// one write. A connection carries one call at a time (no pipelining); the
// pool grows as calls in flight need it and reuses its idle connections
// last in, first out. The response is read into the connection's own
// buffer: the status line and headers (at most Options.MaxHeaderSize
// bytes), then the body, framed by Content-Length, chunked
// Transfer-Encoding or the connection's close, read and discarded (or
// appended to the caller's slice), at most Options.MaxBodySize bytes. A
// call makes no allocation once the pool is warm.
//
// Reads and writes go through internal/sysconn: raw system calls on the
// socket's descriptor, waiting in the runtime's poller, with no reader or
// writer goroutine per connection. A call's deadline is its context's,
// set on the connection once per call (only when it changed); a context
// cancelled before its deadline is seen when the call starts, and a call
// blocked in a read ends at the deadline or when the Client is closed.
//
// Any protocol violation, short read or timeout closes the connection and
// fails the call with an error that says what was wrong. One case is
// retried: a request that is idempotent (GET, HEAD, OPTIONS, TRACE, PUT,
// DELETE), sent on a reused connection that failed before any byte of the
// response arrived, goes once more on a new connection, within the same
// call and its latency. That is a server closing an idle keep-alive
// connection as the request went out, which the request never reached;
// every HTTP client retries it, and counting it would charge the server
// with the client's choice of connection. Nothing else is retried.
//
// It imports the standard library and internal/sysconn only.
package leanhttp
