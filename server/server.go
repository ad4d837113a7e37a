package server

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"

	"github.com/rpckit/rpckit/interceptor"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/reflection"
)

// Server is a gRPC server with rpckit's runtime around it. Register
// services on it (it is a grpc.ServiceRegistrar), then Serve.
type Server struct {
	opts    Options
	logger  *slog.Logger
	grpc    *grpc.Server
	health  *healthService
	metrics *interceptor.Metrics
	admin   http.Handler

	forceOnce sync.Once
	forced    chan struct{} // closed by Stop
	draining  chan struct{} // closed when in-flight calls start to drain

	mu       sync.Mutex
	lis      net.Listener
	adminLis net.Listener
	served   bool
}

// New returns a configured server with health and reflection registered.
// It does not listen yet: Listen or Serve does.
func New(opts Options) (*Server, error) {
	opts = opts.withDefaults()
	if err := opts.validate(); err != nil {
		return nil, err
	}
	s := &Server{opts: opts, logger: opts.Logger, health: newHealthService(),
		forced: make(chan struct{}), draining: make(chan struct{})}
	if !opts.NoMetrics {
		s.metrics = interceptor.NewMetrics(interceptor.MetricsOptions{Buckets: latencyBuckets})
		if err := s.metrics.GaugeFunc("rpckit_server_draining",
			"1 once the server has begun to shut down (health NOT_SERVING, draining calls), else 0.",
			s.drainingValue); err != nil {
			return nil, fmt.Errorf("server: %w", err)
		}
	}
	s.grpc = grpc.NewServer(s.serverOptions()...)
	s.health.register(s.grpc)
	if !opts.NoReflection {
		reflection.Register(s.grpc)
	}
	s.admin = s.adminHandler()
	return s, nil
}

// latencyBuckets are the bounds of grpc_server_handling_seconds:
// Prometheus's default ones; 0.2 s, the latency objective of the alert
// rules in deploy/prometheus, so the share of calls within it is exact;
// and four under 5 ms, so that percentiles read from the buckets (bench
// --target-metrics, histogram_quantile) of a service answering in well
// under a millisecond are not guesses within [0, 5 ms].
var latencyBuckets = []float64{.00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .2, .25, .5, 1, 2.5, 5, 10}

// drainingValue is rpckit_server_draining: 1 from the start of shutdown.
func (s *Server) drainingValue() float64 {
	if s.health.isDraining() {
		return 1
	}
	return 0
}

func (s *Server) serverOptions() []grpc.ServerOption {
	o := s.opts
	out := interceptor.ServerChain(interceptor.ServerChainOptions{
		Logger: o.Logger, AccessLogger: o.AccessLogger, Metrics: s.metrics, MaxDeadline: o.MaxDeadline,
		Tracing: o.Tracing, NoAccessLog: o.NoAccessLog, Unary: o.Unary, Stream: o.Stream,
	})
	out = append(out,
		grpc.MaxRecvMsgSize(o.MaxRecvMsgSize),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{
			MinTime: o.KeepaliveMinTime, PermitWithoutStream: !o.KeepaliveStrict,
		}),
		grpc.KeepaliveParams(keepalive.ServerParameters{
			Time: o.KeepaliveTime, Timeout: o.KeepaliveTimeout, MaxConnectionIdle: o.MaxConnectionIdle,
			MaxConnectionAge: o.MaxConnectionAge, MaxConnectionAgeGrace: o.MaxConnectionAgeGrace,
		}))
	if !o.NoReflection {
		out = append(out, grpc.ChainStreamInterceptor(s.endIdleStreams))
	}
	if o.MaxSendMsgSize > 0 {
		out = append(out, grpc.MaxSendMsgSize(o.MaxSendMsgSize))
	}
	if o.MaxConcurrentStreams > 0 {
		out = append(out, grpc.MaxConcurrentStreams(o.MaxConcurrentStreams))
	}
	if o.TLS != nil {
		out = append(out, grpc.Creds(credentials.NewTLS(o.TLS)))
	}
	return append(out, o.ServerOptions...)
}

// RegisterService registers a service implementation, as generated
// RegisterXxxServer functions do, and marks it SERVING in health.
func (s *Server) RegisterService(desc *grpc.ServiceDesc, impl any) {
	s.grpc.RegisterService(desc, impl)
	s.health.setServing(desc.ServiceName, true)
}

// GRPC returns the underlying grpc-go server, for what Server does not
// wrap. Services registered on it directly get no health status.
func (s *Server) GRPC() *grpc.Server { return s.grpc }

// SetServing sets a service's health status (the overall status is
// service ""). It is ignored once shutdown has begun.
func (s *Server) SetServing(service string, serving bool) { s.health.setServing(service, serving) }

// AdminHandler returns the admin HTTP handler, for callers that serve it
// on a listener of their own.
func (s *Server) AdminHandler() http.Handler { return s.admin }

// Listen opens the gRPC listener, and the admin one when AdminAddr is set.
// Serve calls it when it has not been called; call it first to learn the
// addresses of ":0" listeners.
func (s *Server) Listen() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lis != nil {
		return nil
	}
	lis, err := ListenAddr(s.opts.Addr)
	if err != nil {
		return fmt.Errorf("server: %w", err)
	}
	if s.opts.AdminAddr != "" {
		s.adminLis, err = ListenAddr(s.opts.AdminAddr)
		if err != nil {
			lis.Close()
			return fmt.Errorf("server: admin: %w", err)
		}
	}
	s.lis = lis
	return nil
}

// Addr returns the gRPC listen address, or nil before Listen.
func (s *Server) Addr() net.Addr {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lis == nil {
		return nil
	}
	return s.lis.Addr()
}

// AdminAddr returns the admin listen address, or nil when there is none.
func (s *Server) AdminAddr() net.Addr {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.adminLis == nil {
		return nil
	}
	return s.adminLis.Addr()
}

// Close releases the listeners of a server that will not Serve.
func (s *Server) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.served || s.lis == nil {
		return nil
	}
	if s.adminLis != nil {
		s.adminLis.Close()
	}
	return s.lis.Close()
}

// startServing marks the server served and returns its listeners.
func (s *Server) startServing() (net.Listener, net.Listener, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.served {
		return nil, nil, fmt.Errorf("server: Serve called twice")
	}
	s.served = true
	return s.lis, s.adminLis, nil
}

var _ grpc.ServiceRegistrar = (*Server)(nil)
