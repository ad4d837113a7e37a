package server

import (
	"context"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

// watchGrace is how long a health watcher may wait, once draining begins,
// for its NOT_SERVING update before its stream is ended anyway.
const watchGrace = time.Second

// healthService is grpc-go's health server, plus what shutdown needs:
// Watch streams end once they have told their client NOT_SERVING, so they
// do not hold up the drain of in-flight calls.
type healthService struct {
	*health.Server
	draining   context.Context // done once shutdown begins
	startDrain context.CancelFunc
}

func newHealthService() *healthService {
	ctx, cancel := context.WithCancel(context.Background())
	return &healthService{Server: health.NewServer(), draining: ctx, startDrain: cancel}
}

func (h *healthService) register(srv *grpc.Server) { healthpb.RegisterHealthServer(srv, h) }

func (h *healthService) setServing(service string, serving bool) {
	st := healthpb.HealthCheckResponse_NOT_SERVING
	if serving {
		st = healthpb.HealthCheckResponse_SERVING
	}
	h.SetServingStatus(service, st)
}

// serving reports whether service is SERVING.
func (h *healthService) serving(service string) bool {
	resp, err := h.Check(context.Background(), &healthpb.HealthCheckRequest{Service: service})
	return err == nil && resp.GetStatus() == healthpb.HealthCheckResponse_SERVING
}

// drain turns every status NOT_SERVING for good.
// Watchers learn of it through their NOT_SERVING update.
func (h *healthService) drain() {
	h.startDrain()
	h.Shutdown()
}

func (h *healthService) isDraining() bool { return h.draining.Err() != nil }

// Watch streams status changes; once draining, it ends the stream with
// UNAVAILABLE after sending NOT_SERVING (or after watchGrace).
func (h *healthService) Watch(req *healthpb.HealthCheckRequest, stream healthpb.Health_WatchServer) error {
	ctx, cancel := context.WithCancel(stream.Context())
	defer cancel()
	stop := context.AfterFunc(h.draining, func() { time.AfterFunc(watchGrace, cancel) })
	defer stop()
	err := h.Server.Watch(req, &watchStream{Health_WatchServer: stream, ctx: ctx, cancel: cancel, h: h})
	if h.isDraining() && stream.Context().Err() == nil {
		return status.Error(codes.Unavailable, "server: shutting down")
	}
	return err
}

type watchStream struct {
	healthpb.Health_WatchServer
	ctx    context.Context
	cancel context.CancelFunc
	h      *healthService
}

func (w *watchStream) Context() context.Context { return w.ctx }

func (w *watchStream) Send(m *healthpb.HealthCheckResponse) error {
	err := w.Health_WatchServer.Send(m)
	if w.h.isDraining() && m.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		w.cancel()
	}
	return err
}
