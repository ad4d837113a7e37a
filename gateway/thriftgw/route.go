package thriftgw

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/rpckit/rpckit/thrift/idl"
)

// httpMethods returns the function annotations that declare routes, and the
// HTTP method of each.
func httpMethods() []struct{ key, method string } {
	return []struct{ key, method string }{
		{"api.get", http.MethodGet},
		{"api.post", http.MethodPost},
		{"api.put", http.MethodPut},
		{"api.delete", http.MethodDelete},
		{"api.patch", http.MethodPatch},
	}
}

// Route is one HTTP route to a Thrift function.
type Route struct {
	Method   string // HTTP method
	Path     string // as declared
	Function *idl.Function
	segs     []segment
	literal  int  // literal segments, for precedence
	generic  bool // POST /Service/method: the body is the arguments struct
}

// segKind tells a path segment's kind.
type segKind uint8

const (
	segLiteral segKind = iota
	segParam           // :name or {name}
	segRest            // *name: the rest of the path
)

type segment struct {
	kind segKind
	text string // the literal, or the parameter's name
}

func literals(segs []segment) int {
	n := 0
	for _, s := range segs {
		if s.kind == segLiteral {
			n++
		}
	}
	return n
}

// parsePath splits a route path into segments.
func parsePath(p string) ([]segment, error) {
	if !strings.HasPrefix(p, "/") {
		return nil, fmt.Errorf("path %q does not start with /", p)
	}
	parts := strings.Split(p[1:], "/")
	segs := make([]segment, 0, len(parts))
	for i, s := range parts {
		seg, err := parseSegment(s)
		if err != nil {
			return nil, fmt.Errorf("path %q: %w", p, err)
		}
		if seg.kind == segRest && i != len(parts)-1 {
			return nil, fmt.Errorf("path %q: the catch-all *%s must be the last segment", p, seg.text)
		}
		segs = append(segs, seg)
	}
	return segs, nil
}

func parseSegment(s string) (segment, error) {
	var seg segment
	switch {
	case strings.HasPrefix(s, ":"):
		seg = segment{segParam, s[1:]}
	case strings.HasPrefix(s, "*"):
		seg = segment{segRest, s[1:]}
	case strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}"):
		seg = segment{segParam, s[1 : len(s)-1]}
	default:
		return segment{segLiteral, s}, nil
	}
	if seg.text == "" {
		return seg, fmt.Errorf("segment %q has no parameter name", s)
	}
	return seg, nil
}

// match reports whether path matches r, appending its parameters to ps.
func (r *Route) match(path string, ps []param) ([]param, bool) {
	rest := strings.TrimPrefix(path, "/")
	for i, seg := range r.segs {
		if seg.kind == segRest {
			return append(ps, param{seg.text, rest}), true
		}
		part, tail, more := strings.Cut(rest, "/")
		if (i == len(r.segs)-1) == more {
			return ps, false
		}
		switch seg.kind {
		case segLiteral:
			if part != seg.text {
				return ps, false
			}
		case segParam:
			if part == "" {
				return ps, false
			}
			ps = append(ps, param{seg.text, part})
		}
		rest = tail
	}
	return ps, true
}

// param is a path parameter's name and value.
type param struct{ name, value string }

// router finds the route of a request: among the routes of its method
// that match, the one with the most literal segments, the first declared
// on a tie.
type router struct {
	byMethod map[string][]*Route
	all      []*Route
}

func (rt *router) find(method, path string) (*Route, []param, bool) {
	var best *Route
	var bestPS, ps []param
	for _, r := range rt.byMethod[method] {
		var ok bool
		if ps, ok = r.match(path, ps[:0]); ok && (best == nil || r.literal > best.literal) {
			best, bestPS = r, append(bestPS[:0], ps...)
		}
	}
	return best, bestPS, best != nil
}

// allowed reports whether some other method has a route for path.
func (rt *router) allowed(path string) bool {
	for m := range rt.byMethod {
		if _, _, ok := rt.find(m, path); ok {
			return true
		}
	}
	return false
}

// buildRouter reads the routes of every service of f.
func buildRouter(f *idl.File) (*router, error) {
	rt := &router{byMethod: map[string][]*Route{}}
	for _, svc := range f.Services {
		if err := rt.addService(svc); err != nil {
			return nil, err
		}
	}
	return rt, nil
}

// addService adds the routes of svc's functions and those it extends.
func (rt *router) addService(svc *idl.Service) error {
	for s := svc; s != nil; s = s.Extends {
		for _, fn := range s.Functions {
			if err := rt.addFunction(svc, fn); err != nil {
				return err
			}
		}
	}
	return nil
}

func (rt *router) addFunction(svc *idl.Service, fn *idl.Function) error {
	if err := rt.add(&Route{Method: http.MethodPost, Path: "/" + svc.Name + "/" + fn.Name,
		Function: fn, generic: true}); err != nil {
		return err
	}
	if fn.Service != svc {
		return nil // annotated routes once, on the declaring service
	}
	for _, hm := range httpMethods() {
		for _, a := range fn.Annotations {
			if a.Key != hm.key {
				continue
			}
			if err := rt.add(&Route{Method: hm.method, Path: a.Value, Function: fn}); err != nil {
				return fmt.Errorf("%s: %s.%s %s: %w", a.Pos, svc.Name, fn.Name, a.Key, err)
			}
		}
	}
	return nil
}

func (rt *router) add(r *Route) error {
	segs, err := parsePath(r.Path)
	if err != nil {
		return err
	}
	r.segs, r.literal = segs, literals(segs)
	rt.byMethod[r.Method] = append(rt.byMethod[r.Method], r)
	rt.all = append(rt.all, r)
	return nil
}
