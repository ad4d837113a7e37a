// Package server is rpckit's gRPC service runtime: New(Options) returns a
// grpc-go server with the standard interceptor chain (request ids, access
// log, metrics, recovery, deadline cap, optional tracing), grpc.health.v1
// with a status per service, server reflection v1 and v1alpha, keepalive
// enforcement and message size limits, and an admin HTTP listener with
// /metrics (the chain's grpc_server_* series, whose latency buckets include
// 0.2 s, and rpckit_server_draining, 1 once shutdown begins), /healthz, /readyz and, when asked, /debug/pprof, which closes
// idle connections and bounds how long a request's headers and body may
// take to arrive.
//
// Serve(ctx) listens and serves until ctx ends, then shuts down gracefully:
// health turns NOT_SERVING first (readiness probes and health watchers see
// it), in-flight calls drain for up to ShutdownTimeout, and whatever is left
// is stopped. Reflection streams that wait idle for their client's next
// request end at once, so tools that keep one open do not hold the drain. Callers map signals to ctx, for instance with
// signal.NotifyContext.
//
//	srv, err := server.New(server.Options{Addr: ":50051", AdminAddr: ":9090"})
//	if err != nil { ... }
//	pb.RegisterFooServer(srv, impl) // *Server is a grpc.ServiceRegistrar
//	err = srv.Serve(ctx)
//
// server may import grpc-go, protobuf-go and rpckit's interceptor and
// internal/bodytimeout packages.
package server
