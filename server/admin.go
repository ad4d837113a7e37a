package server

import (
	"net/http"
	"net/http/pprof"
)

// adminHandler serves /metrics, /healthz (liveness: the process answers),
// /readyz (readiness: health SERVING; ?service=name asks about one
// service) and, with Pprof, /debug/pprof/.
func (s *Server) adminHandler() http.Handler {
	mux := http.NewServeMux()
	if s.metrics != nil {
		mux.Handle("GET /metrics", s.metrics.Handler())
	}
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("GET /readyz", s.readyz)
	if s.opts.Pprof {
		mux.HandleFunc("/debug/pprof/", pprof.Index)
		mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
		mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
		mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
		mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	}
	return mux
}

func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	if !s.health.serving(r.URL.Query().Get("service")) {
		http.Error(w, "not serving", http.StatusServiceUnavailable)
		return
	}
	w.Write([]byte("ready\n"))
}
