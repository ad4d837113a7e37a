package server

import (
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/rpckit/rpckit/internal/bodytimeout"
)

// adminServer is the admin listener's server: its handler, with the
// idle, header and body timeouts of the Options.
func (s *Server) adminServer() *http.Server {
	o := s.opts
	return &http.Server{
		Handler:           bodytimeout.Handler(s.admin, timeoutOr(o.AdminBodyTimeout, DefaultAdminBodyTimeout)),
		IdleTimeout:       timeoutOr(o.AdminIdleTimeout, DefaultAdminIdleTimeout),
		ReadHeaderTimeout: timeoutOr(o.AdminReadHeaderTimeout, DefaultAdminReadHeaderTimeout),
	}
}

// timeoutOr is an Options timeout as the admin server takes it: def for
// zero, and -1 (none, to http.Server and bodytimeout alike) for negative.
func timeoutOr(d, def time.Duration) time.Duration {
	switch {
	case d == 0:
		return def
	case d < 0:
		return -1
	}
	return d
}

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
