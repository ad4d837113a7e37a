package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/rpckit/rpckit/gateway"
	"github.com/rpckit/rpckit/invoke"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// loadTimeout bounds one load of the gateway's routes.
const loadTimeout = 30 * time.Second

// The backoff between attempts to reach an upstream that is not up.
const (
	firstRetry = 100 * time.Millisecond
	maxRetry   = 5 * time.Second
)

// gatewayLoader loads the gateway's routes: at start, waiting for the
// upstream, then again on SIGHUP and every --reload.
type gatewayLoader struct {
	g     *gateway.Gateway
	conn  *invoke.Conn
	flags *gatewayFlags
	stdio Stdio
	log   *slog.Logger
}

// newUpstreamConn prepares the connection to target without waiting for it.
func newUpstreamConn(cf *connFlags, target string) (*invoke.Conn, error) {
	opts := cf.opts
	opts.UserAgent = "rpckit"
	return invoke.NewConn(target, opts)
}

// reflection reports whether the routes come from the upstream's reflection.
func (l *gatewayLoader) reflection() bool {
	return !l.flags.schema.local() || l.flags.schema.reflect
}

// run loads the routes, waiting for the upstream, and then reloads them
// until ctx ends. It returns an error only when the first load fails.
func (l *gatewayLoader) run(ctx context.Context) error {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	// Routes loaded are said to be, even when a signal came meanwhile:
	// /readyz has answered 200 since they were.
	if err := l.waitUpstream(ctx, true); err != nil || !l.g.Ready() {
		return err
	}
	fmt.Fprintf(l.stdio.Err, "rpckit gateway: ready: %d routes from %s\n", len(l.g.Routes()), l.flags.upstream)
	var tick <-chan time.Time
	if l.reflection() && l.flags.reload > 0 {
		t := time.NewTicker(l.flags.reload)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-hup:
		case <-tick:
		}
		if err := l.load(ctx); err != nil && ctx.Err() == nil {
			fmt.Fprintf(l.stdio.Err, "rpckit gateway: reload: %v (keeping the routes in use)\n", err)
		}
	}
}

// printRoutes loads the routes and prints them as a table.
func (l *gatewayLoader) printRoutes(ctx context.Context) error {
	if err := l.waitUpstream(ctx, l.reflection()); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(l.stdio.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "METHOD\tPATH\tTARGET")
	for _, r := range l.g.Routes() {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r.HTTPMethod, r.Template, routeTarget(r))
	}
	return tw.Flush()
}

// routeTarget names a route's gRPC method as pkg.Service/Method.
func routeTarget(r *gateway.Route) string {
	return strings.TrimPrefix(invoke.MethodPath(r.Method), "/")
}

// waitUpstream loads the routes, trying again with backoff while the
// upstream is not up, for at most --upstream-wait. With connect, the
// upstream must answer even when the routes come from local files.
func (l *gatewayLoader) waitUpstream(ctx context.Context, connect bool) error {
	wait := l.flags.upstreamWait
	actx := ctx
	if wait > 0 {
		var cancel context.CancelFunc
		actx, cancel = context.WithTimeout(ctx, wait)
		defer cancel()
	}
	for delay := firstRetry; ; delay = min(2*delay, maxRetry) {
		err := l.firstLoad(actx, connect)
		switch {
		case err == nil, ctx.Err() != nil:
			return nil
		case !retryable(err):
			return err
		case wait <= 0:
			return fmt.Errorf("upstream %s: %w", l.flags.upstream, err)
		}
		if delay == firstRetry {
			fmt.Fprintf(l.stdio.Err, "rpckit gateway: waiting for the upstream (not ready until it answers): %v\n", err)
		}
		select {
		case <-actx.Done():
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("upstream %s not up within --upstream-wait %s: %w", l.flags.upstream, wait, err)
		case <-time.After(delay):
		}
	}
}

// firstLoad connects to the upstream, when connect says so, and loads.
func (l *gatewayLoader) firstLoad(ctx context.Context, connect bool) error {
	if connect {
		l.conn.ClientConn().ResetConnectBackoff() // our backoff, not grpc's (up to 2 minutes)
		if err := l.conn.WaitReady(ctx, l.flags.conn.opts.ConnectTimeout); err != nil {
			return err
		}
	}
	return l.load(ctx)
}

// retryable reports whether err may go away once the upstream is up.
func retryable(err error) bool {
	var ce *invoke.ConnectError
	if errors.As(err, &ce) || errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	switch status.Code(err) {
	case codes.Unavailable, codes.DeadlineExceeded:
		return true
	}
	return false
}

// load loads the routes once, from a new source (the files read again, the
// upstream asked again), within loadTimeout; the routes in use stay when it
// fails.
func (l *gatewayLoader) load(ctx context.Context) error {
	lctx, cancel := context.WithTimeout(ctx, loadTimeout)
	defer cancel()
	f := l.flags
	src, release, err := f.schema.source(lctx, l.conn, &f.conn)
	if err == nil {
		err = l.g.Load(lctx, src)
		release() // the loaded routes keep what they need, not the source
	}
	if err != nil {
		if lctx.Err() != nil && ctx.Err() == nil {
			return fmt.Errorf("no answer within %s: %w", loadTimeout, err)
		}
		return err
	}
	l.logRoutes()
	return nil
}

// logRoutes logs the route table at debug level.
func (l *gatewayLoader) logRoutes() {
	if !l.log.Enabled(context.Background(), slog.LevelDebug) {
		return
	}
	for _, r := range l.g.Routes() {
		l.log.Debug("gateway: route", slog.String("http_method", r.HTTPMethod),
			slog.String("path", r.Template.String()), slog.String("target", routeTarget(r)))
	}
}
