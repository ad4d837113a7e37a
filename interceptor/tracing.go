package interceptor

import (
	"go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc"
	"google.golang.org/grpc/stats"
)

// Tracing is OpenTelemetry through otelgrpc's stats handlers. They use the
// global tracer provider, meter provider and propagators
// (otel.SetTracerProvider and friends): set those up in main, then pass
// grpc.StatsHandler(TracingServerHandler()) to the server, or turn
// ServerChainOptions.Tracing on. With no global provider set, spans are
// no-ops.

// TracingServerHandler returns a stats handler that traces incoming calls
// and continues the caller's trace from the request metadata.
func TracingServerHandler() stats.Handler { return otelgrpc.NewServerHandler() }

// TracingClientHandler returns a stats handler that traces outgoing calls
// and propagates the trace context in their metadata.
func TracingClientHandler() stats.Handler { return otelgrpc.NewClientHandler() }
