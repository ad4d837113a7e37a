package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/rpckit/rpckit/gateway"
	"github.com/rpckit/rpckit/gateway/apidocs"
	"github.com/rpckit/rpckit/server"
	"github.com/spf13/cobra"
	"google.golang.org/protobuf/reflect/protoreflect"
)

type gatewayFlags struct {
	conn         connFlags
	policy       policyFlags
	schema       schemaFlags
	upstream     string
	listen       string
	admin        string
	opts         gateway.Options
	masks        []string
	reload       time.Duration
	upstreamWait time.Duration
	printRoutes  bool
	docs         bool
	logLevel     string
	quiet        bool
	timeouts     httpTimeouts
	thrift       thriftGatewayFlags
}

func newGatewayCmd(stdio Stdio) *cobra.Command {
	var f gatewayFlags
	cmd := &cobra.Command{
		Use:   "gateway --upstream TARGET",
		Short: "Serve REST/JSON in front of a gRPC service, from its descriptors",
		Long: `Serve REST/JSON in front of a gRPC service, with routes from its
google.api.http annotations and POST /pkg.Service/Method for every method.
Descriptors come from reflection (the default) or --proto / --protoset.

Server streams answer as newline-delimited JSON ({"result": ...} per message),
or Server-Sent Events for clients that accept text/event-stream. Client and
bidi streams take newline-delimited JSON request bodies; over HTTP/2 (h2c or
TLS) responses flow while the request body is still being sent. gRPC errors
become the standard HTTP statuses with a JSON google.rpc.Status body.

gRPC-Web clients (Content-Type application/grpc-web or grpc-web-text) reach
every unary and server-streaming method at POST /pkg.Service/Method; allow
their origin with --cors-origin. --metrics serves Prometheus metrics at
GET /metrics on the same listener; --admin ADDR serves those of the calls to
the upstream (grpc_client_*, rpckit_client_retries_total,
rpckit_client_breaker_state) on a listener of its own.

--service-config FILE applies a gRPC service config to the upstream's calls
(retries, hedging, timeouts, load balancing); --breaker, a circuit breaker
per method.

GET /openapi.json and /openapi.yaml answer with the OpenAPI 3.1 document of
the routes in use (see rpckit openapi; --openapi=false turns it off);
--docs serves a page that documents them at /docs/ (Swagger UI, from files
built into rpckit).

The gateway listens at once. Until the upstream answers and its descriptors
are loaded, requests get 503 and GET /readyz says 503 (GET /healthz: 200);
it retries with backoff for --upstream-wait, then exits with the last error.
--print-routes loads the routes, prints them (method, path, gRPC method) and
exits; at --log-level debug they are logged at every load.

Descriptors are loaded again on SIGHUP, and every --reload interval when they
come from reflection, off to the side: requests keep the routes in use until
the new ones are ready, and in flight finish on the routes they began with.
A reload that fails (or takes over 30 s) is logged and the routes in use stay.

With --idl FILE the upstream is a Thrift service (--upstream thrift://HOST:PORT,
with --transport, --protocol and --multiplexed as for call). Routes come from
the functions' api.get/api.post/api.put/api.delete/api.patch annotations
("/path/:id", *rest and {id} too) and POST /Service/method for every function;
request fields bind from their api.path, api.query, api.header, api.cookie and
api.body annotations. A declared exception answers {"exception": "Name", ...}
with the status of its api.http_code annotation or --exception-status, else
500; an unreachable upstream 503. --metrics serves GET /metrics as for gRPC.
The IDL is read again on SIGHUP and every --reload interval.`,
		Example: `  rpckit gateway --upstream 127.0.0.1:50051 --plaintext --listen 127.0.0.1:8080
  rpckit gateway --upstream 127.0.0.1:50051 --plaintext --mask 'pkg.User:email,phone'
  rpckit gateway --upstream unix:/run/app/grpc.sock --plaintext --listen unix:/run/app/http.sock --upstream-wait 5m
  rpckit gateway --upstream 127.0.0.1:50051 --plaintext --print-routes
  rpckit gateway --idl svc.thrift --upstream thrift://127.0.0.1:9090 --exception-status NotFound=404`,
		Args: argsBetween(0, 0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runGateway(cmd, stdio, &f)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&f.upstream, "upstream", "", "the gRPC `target` to front, or thrift://HOST:PORT with --idl (required)")
	fs.StringVar(&f.admin, "admin", "", "admin HTTP listen `address` serving GET /metrics of the calls to the upstream (grpc_client_*, retries, breaker state); empty: none")
	fs.StringVar(&f.listen, "listen", "127.0.0.1:8080", "HTTP listen `address`, host:port or unix:PATH (HTTP/1.1 and h2c)")
	durationVar(fs, &f.opts.Timeout, "timeout", 30*time.Second, "deadline of calls without a Grpc-Timeout header")
	fs.Int64Var(&f.opts.MaxBodyBytes, "max-body", 4<<20, "largest request body in `bytes` (413 past it)")
	fs.StringSliceVar(&f.opts.Headers, "forward-header", nil, "request `headers` forwarded as metadata, besides Authorization, X-Request-Id and Grpc-Metadata-*")
	fs.StringSliceVar(&f.opts.CORSOrigins, "cors-origin", nil, "`origins` allowed to call from browsers (* for any)")
	fs.StringArrayVar(&f.masks, "mask", nil, "remove fields from responses: `'pkg.Msg:path,path'` (repeatable)")
	durationVar(fs, &f.reload, "reload", time.Minute, "how often to reload descriptors from reflection (0: only on SIGHUP)")
	durationVar(fs, &f.upstreamWait, "upstream-wait", time.Minute, "how long to keep trying an upstream that is not up at start (0: try once)")
	fs.BoolVar(&f.printRoutes, "print-routes", false, "print the route table (method, path, gRPC method) and exit")
	fs.BoolVar(&f.opts.Probes, "probes", true, "serve GET /healthz and GET /readyz")
	fs.StringVar(&f.logLevel, "log-level", "info", "log `level`: debug (adds the route table), info, warn or error")
	fs.BoolVar(&f.quiet, "quiet", false, "no access log")
	fs.BoolVar(&f.opts.Metrics, "metrics", false, "serve Prometheus metrics at GET /metrics")
	fs.BoolVar(&f.opts.OpenAPI, "openapi", true, "serve the routes' OpenAPI document at GET /openapi.json and /openapi.yaml")
	fs.BoolVar(&f.docs, "docs", false, "serve a page documenting the REST API at /docs/ (needs --openapi)")
	f.timeouts.register(fs, "")
	f.conn.register(fs)
	f.policy.register(fs)
	f.schema.register(fs)
	f.thrift.register(fs)
	return cmd
}

func parseMasks(specs []string) (map[protoreflect.FullName][]string, error) {
	out := map[protoreflect.FullName][]string{}
	for _, s := range specs {
		name, paths, ok := strings.Cut(s, ":")
		if !ok || name == "" || paths == "" {
			return nil, usagef("--mask %q: want 'pkg.Msg:field.path,other'", s)
		}
		out[protoreflect.FullName(name)] = append(out[protoreflect.FullName(name)], strings.Split(paths, ",")...)
	}
	return out, nil
}

func runGateway(cmd *cobra.Command, stdio Stdio, f *gatewayFlags) error {
	if f.thrift.idl.file != "" {
		return runThriftGateway(cmd, stdio, f)
	}
	if err := f.thrift.check(cmd.Flags()); err != nil {
		return err
	}
	if f.upstream == "" {
		return usagef("--upstream is required")
	}
	if f.docs && !f.opts.OpenAPI {
		return usagef("--docs shows the OpenAPI document: it needs --openapi")
	}
	masks, err := parseMasks(f.masks)
	if err != nil {
		return err
	}
	logger, err := newLogger(stdio, f.logLevel, false)
	if err != nil {
		return err
	}
	admin := newGatewayAdmin(f.admin)
	if err := f.policy.apply(&f.conn, f.upstream, admin.clientMetrics()); err != nil {
		return err
	}
	conn, err := newUpstreamConn(&f.conn, f.upstream)
	if err != nil {
		return err
	}
	defer conn.Close()
	opts := f.opts
	opts.Conn, opts.Mask = conn, masks
	opts.BodyTimeout = offIfZero(f.timeouts.body)
	if !f.quiet {
		opts.Logger = logger
	}
	g, err := gateway.NewPending(opts)
	if err != nil {
		return err
	}
	ld := &gatewayLoader{g: g, conn: conn, flags: f, stdio: stdio, log: logger}
	if f.printRoutes {
		return ld.printRoutes(cmd.Context())
	}
	lis, err := server.ListenAddr(f.listen)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(cmd.Context())
	defer cancel()
	if err := admin.start(ctx, f.admin, stdio); err != nil {
		lis.Close()
		return err
	}
	fmt.Fprintf(stdio.Err, "rpckit gateway: %s -> %s\n", listenURL(lis), f.upstream)
	err = serveLoading(ctx, lis, plainHTTP2(f.timeouts.server(withDocs(g, f.docs))), ld)
	cancel()
	if aerr := admin.stop(); err == nil {
		err = aerr
	}
	return err
}

// withDocs puts the API documentation page at /docs/ in front of the
// gateway when on.
func withDocs(g http.Handler, on bool) http.Handler {
	if !on {
		return g
	}
	docs := apidocs.Handler(apidocs.Options{})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if apidocs.Path("", r.URL.Path) && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
			docs.ServeHTTP(w, r)
			return
		}
		g.ServeHTTP(w, r)
	})
}

// serveLoading serves srv on lis while ld loads the routes and reloads
// them, until ctx ends or ld gives up on the upstream.
func serveLoading(ctx context.Context, lis net.Listener, srv *http.Server, ld *gatewayLoader) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	served := make(chan error, 1)
	go func() {
		err := serveHTTP(ctx, lis, srv)
		cancel()
		served <- err
	}()
	err := ld.run(ctx)
	cancel()
	if serr := <-served; err == nil {
		err = serr
	}
	return err
}

// listenURL says where lis serves HTTP: http://host:port, or unix:PATH.
func listenURL(lis net.Listener) string {
	if lis.Addr().Network() == "unix" {
		return "unix:" + lis.Addr().String()
	}
	return "http://" + lis.Addr().String()
}

// serveHTTP serves until ctx ends, then shuts down gracefully.
func serveHTTP(ctx context.Context, lis net.Listener, srv *http.Server) error {
	done := make(chan error, 1)
	go func() { done <- srv.Serve(lis) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}
