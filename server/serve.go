package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// adminShutdownTimeout bounds the admin server's own graceful close.
const adminShutdownTimeout = 5 * time.Second

// Serve listens (unless Listen was called) and serves until ctx ends or
// serving fails, then shuts down: health goes NOT_SERVING, DrainDelay
// passes, in-flight calls get ShutdownTimeout to finish, the rest are
// cancelled, and the admin server closes last. It returns nil after a
// shutdown that ctx asked for.
func (s *Server) Serve(ctx context.Context) error {
	if err := s.Listen(); err != nil {
		return err
	}
	lis, adminLis, err := s.startServing()
	if err != nil {
		return err
	}
	if s.metrics != nil {
		s.metrics.InitializeServer(s.grpc)
	}
	errc := make(chan error, 2)
	go func() { errc <- s.serveGRPC(lis) }()
	var admin *http.Server
	if adminLis != nil {
		admin = s.adminServer()
		go func() { errc <- serveAdmin(admin, adminLis) }()
	}
	s.logger.Info("server: serving", slog.String("addr", lis.Addr().String()), slog.String("admin", addrString(s.AdminAddr())))
	select {
	case <-ctx.Done():
		err = nil
	case err = <-errc:
	}
	s.shutdown(admin)
	return err
}

func (s *Server) serveGRPC(lis net.Listener) error {
	if err := s.grpc.Serve(lis); err != nil {
		return fmt.Errorf("server: %w", err)
	}
	return errors.New("server: stopped serving")
}

func serveAdmin(srv *http.Server, lis net.Listener) error {
	if err := srv.Serve(lis); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("server: admin: %w", err)
	}
	return nil
}

// Run is Serve; it reads better in a main that only runs the server.
func (s *Server) Run(ctx context.Context) error { return s.Serve(ctx) }

// shutdown drains the server in the order load balancers need.
func (s *Server) shutdown(admin *http.Server) {
	s.logger.Info("server: shutting down", slog.String("drain_delay", s.opts.DrainDelay.String()),
		slog.String("timeout", s.opts.ShutdownTimeout.String()))
	s.health.drain()
	s.drainDelay()
	s.drainCalls()
	if admin != nil {
		ctx, cancel := context.WithTimeout(context.Background(), adminShutdownTimeout)
		defer cancel()
		admin.Shutdown(ctx)
	}
	s.logger.Info("server: stopped")
}

// drainDelay waits DrainDelay, or less if Stop is called.
func (s *Server) drainDelay() {
	if s.opts.DrainDelay <= 0 {
		return
	}
	timer := time.NewTimer(s.opts.DrainDelay)
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-s.forced:
	}
}

// Stop cuts a shutdown short: the drain delay ends and in-flight calls are
// cancelled now. A second signal in a CLI maps to it. Stop before Serve's
// ctx ends makes the shutdown, when it comes, immediate.
func (s *Server) Stop() { s.forceOnce.Do(func() { close(s.forced) }) }

// drainCalls waits up to ShutdownTimeout for in-flight calls (or until
// Stop), then stops the server, cancelling what is left. Idle reflection
// streams end at once (see idleEnded).
func (s *Server) drainCalls() {
	close(s.draining)
	done := make(chan struct{})
	go func() {
		s.grpc.GracefulStop()
		close(done)
	}()
	timer := time.NewTimer(s.opts.ShutdownTimeout)
	defer timer.Stop()
	select {
	case <-done:
		return
	case <-timer.C:
		s.logger.Warn("server: drain timed out, cancelling in-flight calls")
	case <-s.forced:
		s.logger.Warn("server: stopped, cancelling in-flight calls")
	}
	s.grpc.Stop()
	<-done
}

// addrString is a's string form, or "" for none.
func addrString(a net.Addr) string {
	if a == nil {
		return ""
	}
	return a.String()
}
