package gateway

import (
	"net/http"
)

// Where Options.Probes serves them.
const (
	healthzPath = "/healthz"
	readyzPath  = "/readyz"
)

// probe answers GET /healthz (the gateway runs) and GET /readyz (routes
// are loaded); it reports whether path was one of them.
func (g *Gateway) probe(w http.ResponseWriter, path string, loaded bool) bool {
	switch {
	case path == healthzPath, path == readyzPath && loaded:
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok\n"))
	case path == readyzPath:
		http.Error(w, "not ready: the upstream's services are not loaded yet", http.StatusServiceUnavailable)
	default:
		return false
	}
	return true
}
