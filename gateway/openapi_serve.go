package gateway

import (
	"net/http"
	"strconv"
)

// The paths of the OpenAPI document, with Options.OpenAPI.
const (
	openAPIJSONPath = "/openapi.json"
	openAPIYAMLPath = "/openapi.yaml"
)

// openAPIDocs is a load's OpenAPI document, written once per load.
type openAPIDocs struct {
	json, yaml []byte
}

// buildOpenAPIDocs writes the document of a load's routes, when
// Options.OpenAPI asks for it.
func (g *Gateway) buildOpenAPIDocs(routes []*Route) (*openAPIDocs, error) {
	if !g.opts.OpenAPI {
		return nil, nil
	}
	js, err := OpenAPIJSON(routes, OpenAPIOptions{})
	if err != nil {
		return nil, err
	}
	y, err := jsonToYAML(js)
	if err != nil {
		return nil, err
	}
	return &openAPIDocs{json: js, yaml: y}, nil
}

// serveOpenAPI answers GET /openapi.json and /openapi.yaml with the
// document of the routes in use (true when it did).
func (g *Gateway) serveOpenAPI(w http.ResponseWriter, r *http.Request, st *state) bool {
	var body []byte
	var ct string
	switch r.URL.Path {
	case openAPIJSONPath:
		ct = "application/json"
	case openAPIYAMLPath:
		ct = "application/yaml"
	default:
		return false
	}
	if st == nil {
		writeRoutingError(w, http.StatusServiceUnavailable, notLoaded)
		return true
	}
	if ct == "application/json" {
		body = st.openapi.json
	} else {
		body = st.openapi.yaml
	}
	h := w.Header()
	h.Set("Content-Type", ct)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Cache-Control", "no-cache")
	_, _ = w.Write(body)
	return true
}
