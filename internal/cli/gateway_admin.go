package cli

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/rpckit/rpckit/interceptor"
	"github.com/rpckit/rpckit/server"
)

// gatewayAdmin is the gateway's admin listener: Prometheus metrics of its
// calls to the upstream at GET /metrics (grpc_client_* under
// go-grpc-middleware's names, rpckit_client_retries_total,
// rpckit_client_breaker_state), apart from the traffic it serves.
type gatewayAdmin struct {
	metrics *interceptor.Metrics
	srv     *http.Server
	done    chan error
}

// newGatewayAdmin prepares the upstream's client metrics when --admin is
// given; nil when it is not.
func newGatewayAdmin(addr string) *gatewayAdmin {
	if addr == "" {
		return nil
	}
	return &gatewayAdmin{metrics: interceptor.NewMetrics(interceptor.MetricsOptions{})}
}

// clientMetrics are the metrics the upstream's calls go into; nil
// without an admin listener.
func (a *gatewayAdmin) clientMetrics() *interceptor.Metrics {
	if a == nil {
		return nil
	}
	return a.metrics
}

// start listens on addr and serves until ctx ends; stop waits for it.
func (a *gatewayAdmin) start(ctx context.Context, addr string, stdio Stdio) error {
	if a == nil {
		return nil
	}
	lis, err := server.ListenAddr(addr)
	if err != nil {
		return fmt.Errorf("--admin: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", a.metrics.Handler())
	a.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: time.Minute}
	a.done = make(chan error, 1)
	fmt.Fprintf(stdio.Err, "rpckit gateway: admin at %s/metrics\n", listenURL(lis))
	go func() { a.done <- serveHTTP(ctx, lis, a.srv) }()
	return nil
}

// stop waits for the admin listener to shut down; ctx must have ended.
func (a *gatewayAdmin) stop() error {
	if a == nil || a.done == nil {
		return nil
	}
	return <-a.done
}
