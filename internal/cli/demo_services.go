package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/rpckit/rpckit/examples/ranking"
	"github.com/rpckit/rpckit/gateway"
	"github.com/rpckit/rpckit/invoke"
	"github.com/rpckit/rpckit/schema"
	"github.com/rpckit/rpckit/server"
	"google.golang.org/grpc"
)

// demoServices are the ranking service and the gateway in front of it,
// both in this process on loopback ports of their own choosing.
type demoServices struct {
	grpcAddr string // host:port of the ranking service
	httpURL  string // http://host:port of the gateway
	// metricsURL is the Prometheus endpoint of this process, which runs the
	// service and the gateway: the load tests, in processes of their own,
	// scrape it for the server side's CPU.
	metricsURL string
	conn       *invoke.Conn
	source     schema.Source
	inFlight   atomic.Int64 // calls the ranking service is serving
	thrift     demoThrift   // the service's Thrift side

	stop func() error // shuts everything down and waits for it
}

// startDemoServices starts the service and the gateway; logger receives
// their logs.
func startDemoServices(ctx context.Context, logger *slog.Logger, model ranking.Options) (*demoServices, error) {
	model.Logger = logger
	svc, err := ranking.New(model)
	if err != nil {
		return nil, err
	}
	d := &demoServices{}
	srv, err := server.New(server.Options{Addr: "127.0.0.1:0", AdminAddr: "127.0.0.1:0", Logger: logger, ShutdownTimeout: 2 * time.Second,
		Unary: []grpc.UnaryServerInterceptor{d.countUnary}, Stream: []grpc.StreamServerInterceptor{d.countStream}})
	if err != nil {
		return nil, err
	}
	svc.Register(srv)
	if err := srv.Listen(); err != nil {
		return nil, err
	}
	d.grpcAddr = srv.Addr().String()
	d.metricsURL = "http://" + srv.AdminAddr().String() + "/metrics"
	srvCtx, stopSrv := context.WithCancel(context.WithoutCancel(ctx))
	srvDone := make(chan error, 1)
	go func() { srvDone <- srv.Serve(srvCtx) }()
	stopGRPC := func() error { stopSrv(); return <-srvDone }
	var stopThrift func() error
	if stopThrift, err = d.thrift.start(svc); err != nil {
		return nil, errors.Join(err, stopGRPC())
	}
	if err := d.startGateway(ctx, logger); err != nil {
		return nil, errors.Join(err, stopThrift(), stopGRPC())
	}
	stopHTTP := d.stop
	d.stop = func() error { return errors.Join(stopHTTP(), d.conn.Close(), stopThrift(), stopGRPC()) }
	return d, nil
}

func (d *demoServices) countUnary(ctx context.Context, req any, _ *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
	d.inFlight.Add(1)
	defer d.inFlight.Add(-1)
	return h(ctx, req)
}

func (d *demoServices) countStream(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, h grpc.StreamHandler) error {
	d.inFlight.Add(1)
	defer d.inFlight.Add(-1)
	return h(srv, ss)
}

// waitIdle returns once the ranking service (gRPC or Thrift) has served no call for a
// moment, or after max: each transport's load test starts on an idle
// service, not on the backlog the one before may have left.
func (d *demoServices) waitIdle(ctx context.Context, max time.Duration) {
	const quiet = 250 * time.Millisecond
	tick := time.NewTicker(25 * time.Millisecond)
	defer tick.Stop()
	deadline := time.Now().Add(max)
	var idleSince time.Time
	for time.Now().Before(deadline) {
		if d.inFlight.Load() > 0 || d.thrift.inFlight() > 0 {
			idleSince = time.Time{}
		} else if idleSince.IsZero() {
			idleSince = time.Now()
		} else if time.Since(idleSince) >= quiet {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// startGateway dials the service and serves the gateway in front of it,
// with routes from the service's reflection, as `rpckit gateway` does.
func (d *demoServices) startGateway(ctx context.Context, logger *slog.Logger) error {
	conn, err := invoke.Dial(ctx, d.grpcAddr, invoke.DialOptions{Plaintext: true, UserAgent: "rpckit-demo"})
	if err != nil {
		return err
	}
	refl := schema.Reflection(conn.ClientConn(), schema.ReflectionOptions{})
	d.conn, d.source = conn, refl
	gw, err := gateway.New(ctx, gateway.Options{Conn: conn, Source: d.source, Timeout: 10 * time.Second})
	if err != nil {
		refl.Close()
		conn.Close()
		return fmt.Errorf("demo: gateway: %w", err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		refl.Close()
		conn.Close()
		return err
	}
	d.httpURL = "http://" + lis.Addr().String()
	hs := plainHTTP2(&http.Server{Handler: gw, ReadHeaderTimeout: 10 * time.Second,
		ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)})
	done := make(chan error, 1)
	go func() { done <- hs.Serve(lis) }()
	d.stop = func() error {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		err := hs.Shutdown(sctx)
		if serr := <-done; !errors.Is(serr, http.ErrServerClosed) {
			err = errors.Join(err, serr)
		}
		refl.Close()
		return err
	}
	return nil
}
