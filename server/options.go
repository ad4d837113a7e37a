package server

import (
	"crypto/tls"
	"errors"
	"log/slog"
	"time"

	"google.golang.org/grpc"
)

// Defaults for the zero fields of Options.
const (
	DefaultAddr             = ":50051"
	DefaultShutdownTimeout  = 30 * time.Second
	DefaultKeepaliveMinTime = 10 * time.Second
	DefaultMaxRecvMsgSize   = 4 << 20

	DefaultAdminIdleTimeout       = 120 * time.Second
	DefaultAdminReadHeaderTimeout = 10 * time.Second
	DefaultAdminBodyTimeout       = 30 * time.Second
)

// Options configures a Server. The zero value serves plaintext gRPC on
// DefaultAddr with the standard chain logging to slog.Default, metrics,
// health and reflection, and no admin listener.
type Options struct {
	// Addr is the gRPC listen address: host:port, or unix:PATH for a Unix
	// socket (see ListenAddr).
	Addr string
	// AdminAddr, when set, is the listen address of the admin HTTP server
	// (/metrics, /healthz, /readyz, /debug/pprof/ with Pprof).
	AdminAddr string
	// Pprof adds net/http/pprof under /debug/pprof/ on the admin server.
	Pprof bool
	// AdminIdleTimeout closes admin keep-alive connections idle that
	// long, AdminReadHeaderTimeout bounds the wait for a request's
	// headers and AdminBodyTimeout the wait for its body. Zero means the
	// Default ones; negative, no bound.
	AdminIdleTimeout       time.Duration
	AdminReadHeaderTimeout time.Duration
	AdminBodyTimeout       time.Duration
	// TLS, when set, serves gRPC over TLS with this configuration.
	TLS *tls.Config
	// Logger receives the access log, recovered panics and lifecycle
	// events; nil means slog.Default.
	Logger *slog.Logger
	// AccessLogger, when set, receives the access log instead of Logger.
	AccessLogger *slog.Logger

	// MaxRecvMsgSize and MaxSendMsgSize bound message sizes in bytes; zero
	// means DefaultMaxRecvMsgSize and grpc-go's unlimited send size.
	MaxRecvMsgSize int
	MaxSendMsgSize int
	// MaxConcurrentStreams bounds the streams of one connection; zero means
	// grpc-go's default.
	MaxConcurrentStreams uint32
	// MaxDeadline, when positive, caps the deadline of every call.
	MaxDeadline time.Duration

	// KeepaliveMinTime is the shortest ping interval clients may use
	// before the server closes their connection (too_many_pings); zero
	// means DefaultKeepaliveMinTime.
	KeepaliveMinTime time.Duration
	// KeepaliveStrict refuses pings on connections without streams. By
	// default they are allowed, as many clients send them.
	KeepaliveStrict bool
	// KeepaliveTime and KeepaliveTimeout make the server ping idle
	// connections and close them when the ping is not answered; zero
	// means grpc-go's defaults (2h, 20s).
	KeepaliveTime    time.Duration
	KeepaliveTimeout time.Duration
	// MaxConnectionIdle, MaxConnectionAge and MaxConnectionAgeGrace close
	// idle or old connections so clients rebalance; zero means never.
	MaxConnectionIdle     time.Duration
	MaxConnectionAge      time.Duration
	MaxConnectionAgeGrace time.Duration

	// ShutdownTimeout bounds the drain of in-flight calls once ctx ends;
	// calls still running then are cancelled. Zero means
	// DefaultShutdownTimeout.
	ShutdownTimeout time.Duration
	// DrainDelay is how long the server advertises NOT_SERVING, still
	// accepting calls, before it starts to drain, so load balancers stop
	// sending traffic first. Zero means no delay.
	DrainDelay time.Duration

	// Tracing turns on OpenTelemetry tracing with the global providers.
	Tracing bool
	// NoAccessLog, NoMetrics and NoReflection turn those parts off.
	NoAccessLog  bool
	NoMetrics    bool
	NoReflection bool

	// Unary and Stream are more interceptors, run inside the standard
	// chain just before the handlers.
	Unary  []grpc.UnaryServerInterceptor
	Stream []grpc.StreamServerInterceptor
	// ServerOptions are passed to grpc.NewServer after rpckit's own.
	ServerOptions []grpc.ServerOption
}

func (o Options) withDefaults() Options {
	if o.Addr == "" {
		o.Addr = DefaultAddr
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.MaxRecvMsgSize == 0 {
		o.MaxRecvMsgSize = DefaultMaxRecvMsgSize
	}
	if o.KeepaliveMinTime == 0 {
		o.KeepaliveMinTime = DefaultKeepaliveMinTime
	}
	if o.ShutdownTimeout == 0 {
		o.ShutdownTimeout = DefaultShutdownTimeout
	}
	return o
}

func (o Options) validate() error {
	if o.MaxRecvMsgSize < 0 || o.MaxSendMsgSize < 0 {
		return errors.New("server: message size limits must not be negative")
	}
	for _, d := range []time.Duration{o.MaxDeadline, o.KeepaliveMinTime, o.KeepaliveTime, o.KeepaliveTimeout,
		o.MaxConnectionIdle, o.MaxConnectionAge, o.MaxConnectionAgeGrace, o.ShutdownTimeout, o.DrainDelay} {
		if d < 0 {
			return errors.New("server: durations must not be negative")
		}
	}
	return nil
}
