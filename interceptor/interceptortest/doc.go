// Package interceptortest checks a gRPC interceptor chain against the
// semantics gRPC callers rely on, the way testing/slogtest checks a
// slog.Handler: give it the server and dial options that install a chain,
// and it serves a test service on loopback through them and runs a battery
// of calls. Status codes, messages and details pass through unchanged;
// metadata reaches the handler and comes back in headers and trailers;
// deadlines propagate and expire as DEADLINE_EXCEEDED; cancellation reaches
// the handler; unary, server, client and bidi streaming work, empty streams
// included; and, for chains that claim it, panics become INTERNAL and the
// server keeps serving.
//
//	func TestChain(t *testing.T) {
//		interceptortest.Run(t, interceptortest.Chain{
//			ServerOptions: []grpc.ServerOption{grpc.ChainUnaryInterceptor(mine)},
//			Recovers:      true,
//		})
//	}
//
// The test service is grpc-go's interop grpc.testing.TestService.
// interceptortest imports only the standard library, grpc-go, protobuf-go
// and genproto's errdetails.
package interceptortest
