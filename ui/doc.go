// Package ui is rpckit's web page for exploring, calling and load-testing
// gRPC services, and calling Thrift ones: an http.Handler that serves hand-written ES modules and
// CSS (embedded, no build step) and a small JSON API behind them.
//
// The page connects to targets (plaintext or TLS; gRPC, gRPC-Web or
// Connect; schema from reflection or uploaded .proto files and protosets),
// lists their services and methods, describes messages for the request
// form, makes unary calls over POST and runs streams and bounded load tests
// over one WebSocket per page (on the load target rpckit bench uses,
// invoke/loadtarget: the lean engine unless the page asks for another, and
// connect-go's for gRPC-Web and Connect).
//
// A Thrift target is a host:port and its IDL, uploaded in the page (the
// main files and those they include, bounded in count and size), with a
// transport, a protocol, an optional multiplexed service name and the TLS
// settings gRPC targets take: the page lists its services and functions
// and makes unary calls through thrift/invoke, whose declared and
// application exceptions it shows. A call's metadata rows go as THeader
// info headers, which only the header transport carries: elsewhere they
// are refused.
//
// Security: every request must carry the session cookie, set in exchange
// for the token printed at start; the Host header must name the listener
// (an IP literal, localhost, or a configured name), which defeats DNS
// rebinding; state-changing requests and the WebSocket must come from the
// page's own origin; the page runs under a strict Content-Security-Policy.
// When the listener is exposed beyond loopback, targets are dialled only
// when an allowlist matches them, checked against the resolved address at
// dial time, and cloud metadata addresses are never dialled.
//
// ui may import schema, invoke, transcode, load and load/report,
// thrift/invoke (with thrift/idl, thrift/client, thrift/wire and
// thrift/transcode), internal/bodytimeout, grpc-go, protobuf-go and the WebSocket library
// (whose types stay inside).
package ui
