// Package interceptor is rpckit's gRPC service runtime as grpc-go
// interceptors and stats handlers, one concept per file:
//
//   - request-id: x-request-id taken from the caller or made, carried in the
//     context, the response headers, every log line (NewLogHandler) and
//     outgoing calls made with the same context;
//   - an access log (slog) and panic recovery (go-grpc-middleware);
//   - Prometheus metrics with go-grpc-middleware's standard names
//     (grpc_server_handled_total, grpc_server_handling_seconds, ...),
//     exposed through an http.Handler, and on the client the attempts of
//     a call after its first (rpckit_client_retries_total) and a
//     breaker's state (rpckit_client_breaker_state);
//   - OpenTelemetry tracing (otelgrpc stats handlers, off unless asked);
//   - a server-side deadline cap;
//   - on the client: per-call default timeouts, retries through grpc-go's
//     service config (ServiceConfig builds the JSON; ParseServiceConfig
//     checks one a user wrote and hedges the unary calls its
//     hedgingPolicy names, which grpc-go does not) and a circuit breaker
//     that fails fast with UNAVAILABLE while open (MethodBreakers: one per
//     method).
//
// ServerChain and ClientChain assemble the standard chains in their order.
// ServerChain runs the unary links as one interceptor (UnaryServerChain),
// held to the same behaviour as the links chained one by one.
// Package interceptortest checks any chain against the same gRPC semantics.
//
// Exported APIs use only the standard library, grpc-go and protobuf-go
// types; go-grpc-middleware, Prometheus, OpenTelemetry and gobreaker stay
// inside. interceptor imports no other rpckit package.
package interceptor
