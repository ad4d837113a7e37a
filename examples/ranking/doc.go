// Package ranking is a real-time ranking service (rpckit.ranking.v1): the
// default target of rpckit's bench, gateway, ui and demo tools, and an
// example of a service built on rpckit's server runtime.
//
// The model is real work, deterministic for a given Options: a synthetic
// catalogue of titles with embedding vectors, popularity, recency,
// duration, quality and home-country features; per-user features that
// Feedback and Autoplay update online; and a scorer that combines the
// user-title embedding affinity with a dozen features through a logistic
// layer plus a one-hidden-layer MLP, then keeps the top k with a heap.
//
//	svc, err := ranking.New(ranking.Options{})
//	srv, err := server.New(server.Options{Addr: ":50051"})
//	svc.Register(srv)
//	err = srv.Serve(ctx)
//
// The same service answers Thrift calls (thrift/ranking.thrift, served by
// [Service.ThriftServer] with Apache Thrift's Go library): the same
// validation and model, the gRPC statuses turned into the IDL's declared
// exceptions.
//
// Nothing in rpckit's library imports this package. It may import grpc-go,
// protobuf-go, genproto, Apache Thrift's Go library and its generated code
// under gen/.
package ranking
