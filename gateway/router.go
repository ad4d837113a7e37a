package gateway

import (
	"net/http"
	"slices"
	"sort"
	"strings"
)

// router finds the route of a request.
type router struct {
	routes []*Route // most specific first
}

func newRouter(routes []*Route) (*router, error) {
	if err := conflicts(routes); err != nil {
		return nil, err
	}
	sorted := slices.Clone(routes)
	sort.SliceStable(sorted, func(i, j int) bool {
		li, di := specificity(sorted[i])
		lj, dj := specificity(sorted[j])
		if li != lj {
			return li > lj
		}
		return di < dj
	})
	return &router{routes: sorted}, nil
}

// match returns the route for method and escaped path with its variables,
// or the HTTP status explaining why there is none: 404 for an unknown
// path, 405 (with the methods that would work) for a known path.
func (rt *router) match(method, escapedPath string) (*Route, map[string]string, int, []string) {
	parts, verb := splitPath(escapedPath)
	var allowed []string
	for _, r := range rt.routes {
		vars, ok := r.matchPath(parts, verb)
		if !ok {
			continue
		}
		if r.HTTPMethod == method {
			return r, vars, http.StatusOK, nil
		}
		if !slices.Contains(allowed, r.HTTPMethod) {
			allowed = append(allowed, r.HTTPMethod)
		}
	}
	if len(allowed) > 0 {
		return nil, nil, http.StatusMethodNotAllowed, allowed
	}
	return nil, nil, http.StatusNotFound, nil
}

// splitPath splits "/a/b/c:verb" into segments and the verb candidate.
func splitPath(p string) ([]string, string) {
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	last := parts[len(parts)-1]
	if i := strings.LastIndexByte(last, ':'); i >= 0 {
		return parts, last[i+1:]
	}
	return parts, ""
}

// matchPath matches with the verb split off when the template has one,
// else with the last segment whole.
func (r *Route) matchPath(parts []string, verb string) (map[string]string, bool) {
	if r.Template.Verb == "" {
		return r.Template.Match(parts)
	}
	if verb != r.Template.Verb {
		return nil, false
	}
	trimmed := slices.Clone(parts)
	last := trimmed[len(trimmed)-1]
	trimmed[len(trimmed)-1] = last[:len(last)-len(verb)-1]
	return r.Template.Match(trimmed)
}
