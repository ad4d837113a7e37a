package gateway

import (
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/internal/bodytimeout"
	"github.com/rpckit/rpckit/internal/gwmetrics"
	"github.com/rpckit/rpckit/invoke"
	"github.com/rpckit/rpckit/schema"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Options configure a Gateway. Conn is required, and Source for New and
// Reload; the zero value of the rest is the default.
type Options struct {
	// Conn is the upstream connection.
	Conn *invoke.Conn
	// Source gives the upstream's services and their routes to New and
	// Reload; a caller of NewPending that loads with Load may leave it nil.
	Source schema.Source
	// Timeout is the deadline of a call with no Grpc-Timeout header; zero
	// means 30 s.
	Timeout time.Duration
	// MaxBodyBytes caps request bodies (413 past it); zero means 4 MiB.
	MaxBodyBytes int64
	// BodyTimeout bounds how long a request body may take to arrive (408
	// past it): a unary or gRPC-Web body whole, each message of a client
	// stream (waiting between messages is not counted). Zero means 30 s;
	// negative, no bound.
	BodyTimeout time.Duration
	// Headers are request headers, besides Authorization, X-Request-Id
	// and Grpc-Metadata-*, forwarded to the upstream as metadata.
	Headers []string
	// Mask lists, per message type, field paths removed from responses of
	// that type (dynamic.Mask): redaction before anything leaves.
	Mask map[protoreflect.FullName][]string
	// CORSOrigins are the origins allowed to call cross-origin ("*": any).
	CORSOrigins []string
	// Logger receives access logs; nil logs nothing.
	Logger *slog.Logger
	// Metrics serves Prometheus metrics of the gateway's requests at
	// GET /metrics on the gateway's own handler.
	Metrics bool
	// Probes serves GET /healthz (200 while the gateway runs) and
	// GET /readyz (200 once routes are loaded, 503 before) on the
	// gateway's own handler.
	Probes bool
	// OpenAPI serves the OpenAPI 3.1 document of the routes in use (see
	// OpenAPIJSON) at GET /openapi.json and GET /openapi.yaml, written
	// again at every load.
	OpenAPI bool
}

// Gateway serves REST/JSON for a gRPC upstream. Load and Reload swap its
// routes; requests in flight finish on the routes they started with.
type Gateway struct {
	opts    Options
	state   atomic.Pointer[state] // nil until the first Load
	loading sync.Mutex            // one Load at a time
	metrics *gwmetrics.Metrics    // nil unless Options.Metrics
}

// state is what a reload replaces.
type state struct {
	router  *router
	methods map[string]*Route // POST /pkg.Service/Method routes by path, for gRPC-Web
	codec   *codec
	masks   map[protoreflect.FullName]*dynamic.FieldMask
	bodies  map[*Route]*dynamic.FieldMask // the response_body field of routes that name one
	openapi *openAPIDocs                  // nil unless Options.OpenAPI
}

// mask removes the configured fields from a message of type md.
func (st *state) mask(md protoreflect.MessageDescriptor, msg []byte) ([]byte, error) {
	fm := st.masks[md.FullName()]
	if fm == nil {
		return msg, nil
	}
	out, err := dynamic.NewValue(st.codec.types.Type(md), msg).Mask(nil, fm)
	if err != nil {
		return nil, status.Errorf(codes.Internal, "gateway: masking %s: %v", md.FullName(), err)
	}
	return out, nil
}

// ServeHTTP routes a request to its method and answers it.
func (g *Gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rec := &gwmetrics.StatusWriter{ResponseWriter: w}
	st := g.state.Load()
	if r.Body != nil && r.Body != http.NoBody && g.opts.BodyTimeout > 0 {
		body := bodytimeout.New(rec, r, g.opts.BodyTimeout)
		r.Body = body
		defer body.Finish() // what is left unread is read on the clock too
	}
	if !g.serveOwn(st, rec, w, r) {
		g.serveCall(st, rec, r, start)
	}
}

// serveOwn answers what the gateway serves itself, CORS preflights,
// metrics, probes and the OpenAPI document, and reports whether r was one
// of those.
func (g *Gateway) serveOwn(st *state, rec *gwmetrics.StatusWriter, w http.ResponseWriter, r *http.Request) bool {
	if g.cors(rec, r) {
		return true
	}
	if g.metrics != nil && r.URL.Path == metricsPath && r.Method == http.MethodGet {
		g.metrics.ServeHTTP(w, r)
		return true
	}
	if g.opts.Probes && r.Method == http.MethodGet && g.probe(w, r.URL.Path, st != nil) {
		return true
	}
	return g.opts.OpenAPI && r.Method == http.MethodGet && g.serveOpenAPI(w, r, st)
}

// serveCall serves a call in the protocol r speaks, and records it.
func (g *Gateway) serveCall(st *state, rec *gwmetrics.StatusWriter, r *http.Request, start time.Time) {
	if mode, ok := grpcWebMode(r); ok {
		route, code := g.serveGRPCWeb(st, rec, r, mode)
		g.done(r, route, protocolGRPCWeb, code.String(), code, rec.Code(), start)
		return
	}
	if mode, ok := connectModeOf(r); ok {
		route, code := g.serveConnect(st, rec, r, mode)
		g.done(r, route, protocolConnect, code.String(), code, rec.Code(), start)
		return
	}
	route, code := g.serve(st, rec, r)
	g.done(r, route, protocolREST, strconv.Itoa(rec.Code()), code, rec.Code(), start)
}

// done records a finished request in the metrics, labelled metricCode,
// and in the access log with its gRPC code.
func (g *Gateway) done(r *http.Request, route *Route, protocol, metricCode string, code codes.Code, httpStatus int, start time.Time) {
	d := time.Since(start)
	if g.metrics != nil {
		g.metrics.Observe(protocol, routeLabel(route), metricCode, d)
	}
	g.logAccess(r, httpStatus, code.String(), route, d)
}

func (g *Gateway) serve(st *state, w http.ResponseWriter, r *http.Request) (*Route, codes.Code) {
	if st == nil {
		writeRoutingError(w, http.StatusServiceUnavailable, notLoaded)
		return nil, codes.Unavailable
	}
	route, vars, code, allowed := st.router.match(r.Method, r.URL.EscapedPath())
	switch code {
	case http.StatusNotFound:
		writeRoutingError(w, code, fmt.Sprintf("no route for %s %s", r.Method, r.URL.Path))
		return nil, codes.NotFound
	case http.StatusMethodNotAllowed:
		w.Header().Set("Allow", strings.Join(allowed, ", "))
		writeRoutingError(w, code, fmt.Sprintf("%s %s: method not allowed (allowed: %s)", r.Method, r.URL.Path, strings.Join(allowed, ", ")))
		return nil, codes.Unimplemented
	}
	c := &call{g: g, st: st, route: route, w: w, r: r}
	c.run(vars)
	return route, c.code
}

func (g *Gateway) logAccess(r *http.Request, status int, code string, route *Route, d time.Duration) {
	if g.opts.Logger == nil {
		return
	}
	method := ""
	if route != nil {
		method = string(route.Method.FullName())
	}
	g.opts.Logger.LogAttrs(r.Context(), slog.LevelInfo, "request",
		slog.String("http_method", r.Method), slog.String("path", r.URL.Path),
		slog.Int("status", status), slog.String("code", code), slog.String("grpc_method", method),
		slog.String("duration", d.String()), slog.String("peer", r.RemoteAddr),
		slog.String("request_id", r.Header.Get("X-Request-Id")))
}
