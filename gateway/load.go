package gateway

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/internal/bodytimeout"
	"github.com/rpckit/rpckit/internal/gwmetrics"
	"github.com/rpckit/rpckit/invoke"
	"github.com/rpckit/rpckit/schema"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// notLoaded is the message of requests that come before the first Load.
const notLoaded = "gateway: not ready: the upstream's services are not loaded yet"

// New loads the upstream's services from opts.Source and builds the routes.
// Conflicting routes are an error.
func New(ctx context.Context, opts Options) (*Gateway, error) {
	if opts.Source == nil {
		return nil, errors.New("gateway: Options.Source is required")
	}
	g, err := NewPending(opts)
	if err != nil {
		return nil, err
	}
	return g, g.Reload(ctx)
}

// NewPending returns a Gateway without routes, for a caller that loads them
// later with Load (an upstream that is not up yet): until then it answers
// every request 503 Unavailable, and GET /readyz 503 with Options.Probes.
// Options.Source may be nil.
func NewPending(opts Options) (*Gateway, error) {
	if opts.Conn == nil {
		return nil, errors.New("gateway: Options.Conn is required")
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 30 * time.Second
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = 4 << 20
	}
	if opts.BodyTimeout == 0 {
		opts.BodyTimeout = bodytimeout.Default
	}
	g := &Gateway{opts: opts}
	if opts.Metrics {
		g.metrics = gwmetrics.New()
	}
	return g, nil
}

// Reload loads the services of Options.Source again (see Load).
func (g *Gateway) Reload(ctx context.Context) error {
	if g.opts.Source == nil {
		return errors.New("gateway: reload: no Options.Source")
	}
	return g.Load(ctx, g.opts.Source)
}

// Load fetches the services from src, builds their routes and types off
// to the side, and then serves them in place of the routes in use. On error
// the routes in use stay. Requests never wait for a Load: they take the
// routes in use when they start. Load ends when ctx does, as long as src
// honours ctx (schema's Sources do).
func (g *Gateway) Load(ctx context.Context, src schema.Source) error {
	g.loading.Lock()
	defer g.loading.Unlock()
	st, err := g.build(ctx, src)
	if err != nil {
		return err
	}
	g.state.Store(st)
	return nil
}

// Ready reports whether routes are loaded.
func (g *Gateway) Ready() bool { return g.state.Load() != nil }

// build makes the state of the services of src.
func (g *Gateway) build(ctx context.Context, src schema.Source) (*state, error) {
	files, err := schema.AllFiles(ctx, src)
	if err != nil {
		return nil, err
	}
	routes, rt, err := g.loadRoutes(ctx, src)
	if err != nil {
		return nil, err
	}
	st := &state{router: rt, methods: defaultRoutes(routes), codec: newCodec(files)}
	if st.masks, err = compileMasks(ctx, src, st.codec.types, g.opts.Mask); err != nil {
		return nil, err
	}
	if st.bodies, err = responseBodies(routes, st.codec.types); err != nil {
		return nil, err
	}
	if st.openapi, err = g.buildOpenAPIDocs(routes); err != nil {
		return nil, err
	}
	return st, nil
}

// loadRoutes lists the routes of src's services and their router, which must
// leave the gateway's own paths free.
func (g *Gateway) loadRoutes(ctx context.Context, src schema.Source) ([]*Route, *router, error) {
	services, err := servicesOf(ctx, src)
	if err != nil {
		return nil, nil, err
	}
	routes, err := RoutesOf(services)
	if err != nil {
		return nil, nil, err
	}
	rt, err := newRouter(routes)
	if err != nil {
		return nil, nil, err
	}
	return routes, rt, g.ownPaths(rt)
}

// ownPaths rejects routes at the paths the gateway answers itself.
func (g *Gateway) ownPaths(rt *router) error {
	var own []string
	if g.metrics != nil {
		own = append(own, metricsPath)
	}
	if g.opts.Probes {
		own = append(own, healthzPath, readyzPath)
	}
	if g.opts.OpenAPI {
		own = append(own, openAPIJSONPath, openAPIYAMLPath)
	}
	for _, p := range own {
		if r, _, code, _ := rt.match(http.MethodGet, p); code == http.StatusOK {
			return fmt.Errorf("gateway: route %s conflicts with the gateway's own GET %s", r, p)
		}
	}
	return nil
}

// Routes lists the routes served now, most specific first; none before
// the first Load.
func (g *Gateway) Routes() []*Route {
	if st := g.state.Load(); st != nil {
		return st.router.routes
	}
	return nil
}

// defaultRoutes indexes the POST /pkg.Service/Method routes by path.
func defaultRoutes(routes []*Route) map[string]*Route {
	out := map[string]*Route{}
	for _, r := range routes {
		if r.HTTPMethod == http.MethodPost && r.Template.String() == invoke.MethodPath(r.Method) {
			out[r.Template.String()] = r
		}
	}
	return out
}

func servicesOf(ctx context.Context, src schema.Source) ([]protoreflect.ServiceDescriptor, error) {
	names, err := src.Services(ctx)
	if err != nil {
		return nil, err
	}
	var out []protoreflect.ServiceDescriptor
	for _, n := range names {
		if strings.HasPrefix(string(n), "grpc.reflection.") {
			continue // reflection is a stream for tools, not a REST API
		}
		d, err := src.FindSymbol(ctx, n)
		if err != nil {
			return nil, err
		}
		if sd, ok := d.(protoreflect.ServiceDescriptor); ok {
			out = append(out, sd)
		}
	}
	return out, nil
}

func compileMasks(ctx context.Context, src schema.Source, types *dynamic.Cache, masks map[protoreflect.FullName][]string) (map[protoreflect.FullName]*dynamic.FieldMask, error) {
	out := map[protoreflect.FullName]*dynamic.FieldMask{}
	for name, paths := range masks {
		d, err := src.FindSymbol(ctx, name)
		if err != nil {
			return nil, fmt.Errorf("gateway: mask: %w", err)
		}
		md, ok := d.(protoreflect.MessageDescriptor)
		if !ok {
			return nil, fmt.Errorf("gateway: mask: %s is a %s, not a message", name, schema.Kind(d))
		}
		fm, err := dynamic.NewFieldMask(types.Type(md), paths...)
		if err != nil {
			return nil, fmt.Errorf("gateway: mask %s: %w", name, err)
		}
		out[name] = fm
	}
	return out, nil
}

// responseBodies compiles, for each route with a response_body, the mask
// that keeps that field of the response alone.
func responseBodies(routes []*Route, types *dynamic.Cache) (map[*Route]*dynamic.FieldMask, error) {
	out := map[*Route]*dynamic.FieldMask{}
	for _, r := range routes {
		if r.ResponseBody == "" {
			continue
		}
		fds, _ := fieldPath(r.Method.Output(), r.ResponseBody)
		fm, err := dynamic.NewFieldMask(types.Type(r.Method.Output()), string(fds[0].Name()))
		if err != nil {
			return nil, fmt.Errorf("gateway: route %s: response_body: %w", r, err)
		}
		out[r] = fm
	}
	return out, nil
}
