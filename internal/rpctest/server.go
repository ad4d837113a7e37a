package rpctest

import (
	"crypto/tls"
	"fmt"
	"net"
	"os"
	"path/filepath"

	testv1 "github.com/rpckit/rpckit/internal/gen/rpckit/test/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/reflection"
	rpbalpha "google.golang.org/grpc/reflection/grpc_reflection_v1alpha"
)

// Reflection says which reflection services a test server offers.
type Reflection int

const (
	ReflectionBoth    Reflection = iota // v1 and v1alpha
	ReflectionV1Alpha                   // v1alpha only, like older servers
	ReflectionNone
)

// Options configures a test server. The zero value serves plaintext on
// 127.0.0.1 with both reflection services.
type Options struct {
	TLS        *tls.Config // nil: plaintext
	Reflection Reflection
	// UnixSocket, when set, is the socket path to listen on instead of TCP.
	UnixSocket string
	// Register adds more services.
	Register func(*grpc.Server)
}

// Server is a running test server.
type Server struct {
	Addr   string // host:port, or unix:path
	Health *health.Server
	srv    *grpc.Server
}

// Start serves the fixture service, health and reflection.
func Start(opts Options) (*Server, error) {
	lis, addr, err := listen(opts.UnixSocket)
	if err != nil {
		return nil, err
	}
	srv := newGRPCServer(opts.TLS)
	hs := register(srv, opts)
	go srv.Serve(lis)
	return &Server{Addr: addr, Health: hs, srv: srv}, nil
}

// newGRPCServer is a gRPC server, over TLS with tlsConfig when it is set.
func newGRPCServer(tlsConfig *tls.Config) *grpc.Server {
	var sopts []grpc.ServerOption
	if tlsConfig != nil {
		sopts = append(sopts, grpc.Creds(credentials.NewTLS(tlsConfig)))
	}
	return grpc.NewServer(sopts...)
}

// register registers the test service, health (serving), reflection as
// opts asks and opts.Register's services on srv; it returns the health
// server.
func register(srv *grpc.Server, opts Options) *health.Server {
	testv1.RegisterTestServer(srv, Service{})
	hs := health.NewServer()
	healthpb.RegisterHealthServer(srv, hs)
	hs.SetServingStatus(testv1.Test_ServiceDesc.ServiceName, healthpb.HealthCheckResponse_SERVING)
	registerReflection(srv, opts.Reflection)
	if opts.Register != nil {
		opts.Register(srv)
	}
	return hs
}

func listen(socket string) (net.Listener, string, error) {
	if socket != "" {
		return listenUnix(socket)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", fmt.Errorf("rpctest: %w", err)
	}
	return lis, lis.Addr().String(), nil
}

// listenUnix listens on the Unix socket path socket, making its directory.
func listenUnix(socket string) (net.Listener, string, error) {
	if err := os.MkdirAll(filepath.Dir(socket), 0o755); err != nil {
		return nil, "", err
	}
	lis, err := net.Listen("unix", socket)
	if err != nil {
		return nil, "", fmt.Errorf("rpctest: %w", err)
	}
	return lis, "unix:" + socket, nil
}

func registerReflection(srv *grpc.Server, r Reflection) {
	switch r {
	case ReflectionBoth:
		reflection.Register(srv)
	case ReflectionV1Alpha:
		rpbalpha.RegisterServerReflectionServer(srv, reflection.NewServer(reflection.ServerOptions{Services: srv}))
	}
}

// Stop stops the server at once.
func (s *Server) Stop() { s.srv.Stop() }
