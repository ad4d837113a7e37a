package thriftgw

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/rpckit/rpckit/internal/gwmetrics"
	"github.com/rpckit/rpckit/thrift/client"
	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/idl"
	"github.com/rpckit/rpckit/thrift/wire"
)

// Options configure a Gateway. Client is required; the zero value of the
// rest is the default.
type Options struct {
	// Client calls the upstream; its Options.Protocol must be Protocol.
	Client *client.Client
	// Protocol is the upstream's protocol: wire.Binary (default) or
	// wire.Compact.
	Protocol wire.Protocol
	// Timeout is the deadline of a call; zero means 30 s.
	Timeout time.Duration
	// MaxBodyBytes caps request bodies (413 past it); zero means 4 MiB.
	MaxBodyBytes int64
	// BodyTimeout bounds how long a request body may take to arrive (408
	// past it); zero means 30 s, negative no bound.
	BodyTimeout time.Duration
	// Mask lists, per struct name (Name, or include.Name), field paths
	// removed from success values of that struct (dynamic.Mask).
	Mask map[string][]string
	// ExceptionStatus gives the HTTP status of declared exceptions by
	// name, over their api.http_code annotations; 500 otherwise.
	ExceptionStatus map[string]int
	// Logger receives an access log line per request; nil logs nothing.
	Logger *slog.Logger
	// Metrics serves Prometheus metrics of the gateway's requests at
	// GET /metrics on the gateway's own handler.
	Metrics bool
}

const (
	defaultTimeout = 30 * time.Second
	defaultMaxBody = 4 << 20
)

// Gateway is an http.Handler serving HTTP/JSON for a Thrift upstream.
type Gateway struct {
	opts    Options
	state   atomic.Pointer[state] // nil until the first Load
	metrics *gwmetrics.Metrics    // nil unless Options.Metrics
	scratch scratchPool
}

// state is what Load replaces.
type state struct {
	file   *idl.File
	router *router
	plans  map[*Route]*plan
}

// New returns a Gateway with no routes; Load gives it some.
func New(opts Options) (*Gateway, error) {
	if opts.Client == nil {
		return nil, errors.New("thriftgw: Options.Client is required")
	}
	g := &Gateway{opts: opts.withDefaults()}
	if opts.Metrics {
		g.metrics = gwmetrics.New()
	}
	return g, nil
}

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = defaultTimeout
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = defaultMaxBody
	}
	return o
}

// Load compiles the routes of f's services and swaps them in. On error
// the routes in use stay.
func (g *Gateway) Load(f *idl.File) error {
	rt, err := buildRouter(f)
	if err != nil {
		return fmt.Errorf("thriftgw: %w", err)
	}
	cache := &dynamic.Cache{}
	masks, err := compileMasks(f, cache, g.opts.Mask)
	if err != nil {
		return err
	}
	st := &state{file: f, router: rt, plans: make(map[*Route]*plan, len(rt.all))}
	for _, r := range rt.all {
		st.plans[r] = newPlan(r, cache, masks, g.opts.ExceptionStatus)
	}
	g.state.Store(st)
	return nil
}

// Routes returns the routes in use, in declaration order.
func (g *Gateway) Routes() []*Route {
	st := g.state.Load()
	if st == nil {
		return nil
	}
	return append([]*Route(nil), st.router.all...)
}

// compileMasks compiles the mask paths per struct type.
func compileMasks(f *idl.File, cache *dynamic.Cache, specs map[string][]string) (map[*dynamic.Type]*dynamic.FieldMask, error) {
	out := map[*dynamic.Type]*dynamic.FieldMask{}
	for name, paths := range specs {
		it := f.Type(name)
		if it == nil || !it.Resolved().Kind.IsStruct() {
			return nil, fmt.Errorf("thriftgw: mask: no struct %q in %s", name, f.Name+".thrift")
		}
		t := cache.Type(it)
		fm, err := dynamic.NewFieldMask(t, paths...)
		if err != nil {
			return nil, fmt.Errorf("thriftgw: mask of %s: %w", name, err)
		}
		out[t] = fm
	}
	return out, nil
}

func (g *Gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if g.metrics != nil && r.URL.Path == metricsPath && r.Method == http.MethodGet {
		g.metrics.ServeHTTP(w, r)
		return
	}
	start := time.Now()
	sc := g.scratch.get(w)
	defer g.scratch.put(sc)
	route := g.serve(sc, r)
	if g.metrics != nil {
		observe(g.metrics, route, sc.rec.Code(), time.Since(start))
	}
	g.logAccess(r, sc.rec.Code(), time.Since(start))
}

func (g *Gateway) logAccess(r *http.Request, code int, d time.Duration) {
	if g.opts.Logger != nil {
		g.opts.Logger.LogAttrs(r.Context(), slog.LevelInfo, "request",
			slog.String("method", r.Method), slog.String("path", r.URL.Path),
			slog.Int("status", code), slog.Duration("duration", d))
	}
}

// serve answers r through sc.rec and returns the route it took, or nil.
func (g *Gateway) serve(sc *scratch, r *http.Request) *Route {
	w := &sc.rec
	st := g.state.Load()
	if st == nil {
		writeError(w, http.StatusServiceUnavailable, "the IDL is not loaded yet")
		return nil
	}
	rt, ps, ok := st.router.find(r.Method, r.URL.Path)
	if !ok {
		if st.router.allowed(r.URL.Path) {
			writeError(w, http.StatusMethodNotAllowed, "method "+r.Method+" not allowed on "+r.URL.Path)
			return nil
		}
		writeError(w, http.StatusNotFound, "no route for "+r.Method+" "+r.URL.Path)
		return nil
	}
	g.call(sc, r, st.plans[rt], ps)
	return rt
}

func (g *Gateway) call(sc *scratch, r *http.Request, pl *plan, ps []param) {
	w := &sc.rec
	args, herr := g.requestArgs(sc, r, pl, ps)
	if herr != nil {
		writeError(w, herr.status, herr.msg)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), g.opts.Timeout)
	defer cancel()
	fn := pl.route.Function
	if fn.Oneway {
		if err := g.opts.Client.Oneway(ctx, fn.Name, args); err != nil {
			writeCallError(w, ctx, err)
			return
		}
		writeJSON(w, http.StatusAccepted, []byte("{}"))
		return
	}
	reply, err := g.opts.Client.Call(ctx, fn.Name, args, sc.reply[:0])
	if err != nil {
		writeCallError(w, ctx, err)
		return
	}
	sc.reply = reply
	g.writeReply(sc, pl, reply)
}
