// Package scaffold writes a Go service module from .proto files: the
// message and gRPC stubs (generated in-process with protobuf-go's
// compiler/protogen, no protoc and no plugins to install), a main.go on
// rpckit's server.New, a handler file per service whose methods answer
// UNIMPLEMENTED until written, a handler test over an in-process server, a
// Makefile, a Dockerfile, and Kubernetes manifests, rpckit's Grafana
// dashboards and Prometheus SLO rules in deploy/. With
// Options.Update it regenerates the stubs only and leaves everything else
// as it is.
//
//	err := scaffold.Generate(ctx, scaffold.Options{
//		Dir: "echo", Protos: []string{"echo.proto"}, ImportPaths: []string{"proto"},
//	})
//
// scaffold may import rpckit's schema package, protobuf-go and the
// standard library; the module it writes imports rpckit's public packages
// only.
package scaffold
