package cli

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/rpckit/rpckit/gateway/thriftgw"
	"github.com/rpckit/rpckit/server"
	"github.com/rpckit/rpckit/thrift/client"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// thriftGatewayFlags are the gateway's flags for a Thrift upstream: those
// of call and bench (the IDL, transport, protocol, multiplexed name) and
// the status of declared exceptions.
type thriftGatewayFlags struct {
	thriftCallFlags
	exceptionStatus []string
}

func (f *thriftGatewayFlags) register(fs *pflag.FlagSet) {
	f.thriftCallFlags.register(fs)
	fs.StringVar(&f.protocol, "protocol", "binary", "with --idl, the Thrift `protocol`: binary or compact")
	fs.StringArrayVar(&f.exceptionStatus, "exception-status", nil, "with --idl, the HTTP status of a declared exception: `Name=404` (repeatable; over its api.http_code)")
}

// grpcOnlyGatewayFlags are the gateway's flags that mean nothing in front
// of a Thrift upstream.
var grpcOnlyGatewayFlags = []string{"proto", "protoset", "reflect", "admin", "cors-origin",
	"forward-header", "service-config", "breaker", "target-addr", "upstream-wait", "authority", "openapi", "docs"}

func (f *thriftGatewayFlags) check(fs *pflag.FlagSet) error {
	if f.idl.file == "" {
		for _, name := range [...]string{"protocol", "exception-status"} {
			if fs.Changed(name) {
				return usagef("--%s goes with --idl", name)
			}
		}
		return checkThriftOnly(fs)
	}
	for _, name := range grpcOnlyGatewayFlags {
		if fs.Lookup(name) != nil && fs.Changed(name) {
			return usagef("--%s does not go with --idl", name)
		}
	}
	return nil
}

// clientOptions are call's thrift/client options for addr, with a pool
// for the gateway's concurrent requests and their deadlines its own.
func (f *thriftGatewayFlags) clientOptions(addr string, cf *connFlags) (client.Options, error) {
	o, err := f.thriftCallFlags.clientOptions(addr, cf)
	o.MaxConns, o.Timeout = 64, -1
	return o, err
}

func (f *thriftGatewayFlags) statuses() (map[string]int, error) {
	out := map[string]int{}
	for _, s := range f.exceptionStatus {
		name, code, ok := strings.Cut(s, "=")
		n, err := strconv.Atoi(code)
		if !ok || name == "" || err != nil || n < 100 || n > 599 {
			return nil, usagef("--exception-status %q: want Name=STATUS, a status from 100 to 599", s)
		}
		out[name] = n
	}
	return out, nil
}

// thriftUpstream is the address in --upstream thrift://HOST:PORT (or
// HOST:PORT, or unix:PATH).
func thriftUpstream(s string) (string, error) {
	if rest, ok := strings.CutPrefix(s, "thrift://"); ok {
		s = rest
	} else if strings.Contains(s, "://") {
		return "", usagef("--upstream %q: with --idl, want thrift://HOST:PORT", s)
	}
	if s == "" {
		return "", usagef("--upstream is required")
	}
	return s, nil
}

func runThriftGateway(cmd *cobra.Command, stdio Stdio, f *gatewayFlags) error {
	tf := &f.thrift
	if err := tf.check(cmd.Flags()); err != nil {
		return err
	}
	addr, err := thriftUpstream(f.upstream)
	if err != nil {
		return err
	}
	copts, err := tf.clientOptions(addr, &f.conn)
	if err != nil {
		return err
	}
	opts, err := thriftGatewayOptions(stdio, f)
	if err != nil {
		return err
	}
	file, err := loadIDL(tf.idl.file, f.schema.importPaths)
	if err != nil {
		return err
	}
	c, err := client.New(copts)
	if err != nil {
		return err
	}
	defer c.Close()
	opts.Client, opts.Protocol = c, copts.Protocol
	g, err := thriftgw.New(opts)
	if err != nil {
		return err
	}
	if err := g.Load(file); err != nil {
		return err
	}
	if f.printRoutes {
		return printThriftRoutes(stdio, g)
	}
	return serveThriftGateway(cmd.Context(), stdio, f, g)
}

func thriftGatewayOptions(stdio Stdio, f *gatewayFlags) (thriftgw.Options, error) {
	opts := thriftgw.Options{Timeout: f.opts.Timeout, MaxBodyBytes: f.opts.MaxBodyBytes,
		BodyTimeout: offIfZero(f.timeouts.body), Metrics: f.opts.Metrics}
	var err error
	if opts.ExceptionStatus, err = f.thrift.statuses(); err != nil {
		return opts, err
	}
	masks, err := parseMasks(f.masks)
	if err != nil {
		return opts, err
	}
	opts.Mask = map[string][]string{}
	for name, paths := range masks {
		opts.Mask[string(name)] = paths
	}
	logger, err := newLogger(stdio, f.logLevel, false)
	if err != nil {
		return opts, err
	}
	if !f.quiet {
		opts.Logger = logger
	}
	return opts, nil
}

func printThriftRoutes(stdio Stdio, g *thriftgw.Gateway) error {
	tw := tabwriter.NewWriter(stdio.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "METHOD\tPATH\tTARGET")
	for _, r := range g.Routes() {
		fmt.Fprintf(tw, "%s\t%s\t%s.%s\n", r.Method, r.Path, r.Function.Service.Name, r.Function.Name)
	}
	return tw.Flush()
}

func serveThriftGateway(ctx context.Context, stdio Stdio, f *gatewayFlags, g *thriftgw.Gateway) error {
	lis, err := server.ListenAddr(f.listen)
	if err != nil {
		return err
	}
	h := http.Handler(g)
	if f.opts.Probes {
		h = withProbes(g)
	}
	fmt.Fprintf(stdio.Err, "rpckit gateway: %s -> %s (Thrift, %d routes)\n", listenURL(lis), f.upstream, len(g.Routes()))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- serveHTTP(ctx, lis, plainHTTP2(f.timeouts.server(h))) }()
	reloadIDL(ctx, stdio, f, g, served)
	cancel()
	return <-served
}

// withProbes answers GET /healthz and GET /readyz: the IDL is loaded
// before the gateway listens.
func withProbes(g http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && (r.URL.Path == "/healthz" || r.URL.Path == "/readyz") {
			w.Write([]byte("ok\n"))
			return
		}
		g.ServeHTTP(w, r)
	})
}

// reloadIDL parses the IDL again on SIGHUP and every --reload interval
// until ctx ends or the server stops; a reload that fails is logged and
// the routes in use stay.
func reloadIDL(ctx context.Context, stdio Stdio, f *gatewayFlags, g *thriftgw.Gateway, served chan error) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	var tick <-chan time.Time
	if f.reload > 0 {
		t := time.NewTicker(f.reload)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return
		case err := <-served:
			served <- err
			return
		case <-hup:
		case <-tick:
		}
		file, err := loadIDL(f.thrift.idl.file, f.schema.importPaths)
		if err == nil {
			err = g.Load(file)
		}
		if err != nil {
			fmt.Fprintf(stdio.Err, "rpckit gateway: reload: %v (keeping the routes in use)\n", err)
			continue
		}
		fmt.Fprintf(stdio.Err, "rpckit gateway: reloaded: %d routes from %s\n", len(g.Routes()), f.thrift.idl.file)
	}
}
