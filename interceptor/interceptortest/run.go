package interceptortest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
)

// Chain is the chain under test: what installs it on a server and on a
// client. Either side may be empty.
type Chain struct {
	ServerOptions []grpc.ServerOption
	DialOptions   []grpc.DialOption
	// Recovers says the server chain turns handler panics into INTERNAL;
	// only then are panics checked (without it a panic kills the process).
	Recovers bool
	// Timeout bounds each check; zero means 30 seconds.
	Timeout time.Duration
}

// Run serves the test service through c on loopback and runs every check
// as a subtest of t.
func Run(t *testing.T, c Chain) {
	t.Helper()
	e, stop, err := start(c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	for _, ch := range selected(c) {
		t.Run(ch.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), timeout(c))
			defer cancel()
			if err := ch.run(ctx, e); err != nil {
				t.Error(err)
			}
		})
	}
}

// Check is Run without a testing.T: it runs every check and returns their
// failures joined, or nil when the chain keeps gRPC's semantics.
func Check(ctx context.Context, c Chain) error {
	e, stop, err := start(c)
	if err != nil {
		return err
	}
	defer stop()
	var errs []error
	for _, ch := range selected(c) {
		checkCtx, cancel := context.WithTimeout(ctx, timeout(c))
		if err := ch.run(checkCtx, e); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", ch.name, err))
		}
		cancel()
	}
	return errors.Join(errs...)
}

func selected(c Chain) []check {
	var out []check
	for _, ch := range checks {
		if !ch.recovery || c.Recovers {
			out = append(out, ch)
		}
	}
	return out
}

func timeout(c Chain) time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return 30 * time.Second
}

// start serves the test service through the chain on 127.0.0.1 and dials it.
func start(c Chain) (env, func(), error) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return env{}, nil, fmt.Errorf("interceptortest: %w", err)
	}
	srv := grpc.NewServer(c.ServerOptions...)
	svc := newService()
	testgrpc.RegisterTestServiceServer(srv, svc)
	go srv.Serve(lis)
	opts := append([]grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}, c.DialOptions...)
	conn, err := grpc.NewClient(lis.Addr().String(), opts...)
	if err != nil {
		srv.Stop()
		return env{}, nil, fmt.Errorf("interceptortest: %w", err)
	}
	stop := func() {
		conn.Close()
		srv.Stop()
	}
	return env{client: testgrpc.NewTestServiceClient(conn), svc: svc}, stop, nil
}
