package ui

import (
	"context"
	"crypto/rand"
	"embed"
	"encoding/hex"
	"io/fs"
	"net/http"
	"sync"
	"time"

	"github.com/rpckit/rpckit/internal/bodytimeout"
	"github.com/rpckit/rpckit/invoke"
	"github.com/rpckit/rpckit/load/report"
	"github.com/rpckit/rpckit/schema"
	"github.com/rpckit/rpckit/transcode"
	"google.golang.org/protobuf/reflect/protoregistry"
)

//go:embed static
var staticFS embed.FS

// Options configure a Handler. The zero value is a loopback page with a
// random token, any target allowed, transcode conversion and the default
// bench limits.
type Options struct {
	// Token is the secret the page's URL carries; empty means a random one
	// (see Handler.Token).
	Token string
	// Hosts are host names, besides IP literals and localhost, that the
	// Host header may carry (the name a reverse proxy forwards, say).
	Hosts []string
	// Exposed says the listener is reachable beyond loopback: targets are
	// then dialled only when Allow matches them.
	Exposed bool
	// Allow lists the targets an exposed page may dial: host:port patterns
	// where the host is a name (with * wildcards), an IP or a CIDR prefix,
	// and the port a number or *.
	Allow []string
	// Target is dialled when the page opens, with the options the page
	// would use by default (plaintext, reflection); empty for none.
	Target string
	// TargetTLS dials Target with TLS instead of plaintext.
	TargetTLS bool
	// Codec builds the JSON codec for a schema's files; nil means
	// invoke.Transcode with a resolver over the files.
	Codec func(files *protoregistry.Files) invoke.JSONCodec
	// Bench bounds the load tests the page may run.
	Bench BenchLimits
	// DefaultTimeout is the deadline a new request starts with; zero
	// means 10 s.
	DefaultTimeout time.Duration
	// BodyTimeout bounds how long a request body may take to arrive;
	// zero means 30 s, negative no bound.
	BodyTimeout time.Duration
}

// BenchLimits bound a load test from the page; the server refuses settings
// beyond them. Zero fields take the defaults.
type BenchLimits struct {
	MaxDuration    time.Duration // default 60 s
	MaxRate        float64       // calls per second, default 2000
	MaxConcurrency int           // calls in flight, default 64
}

func (l BenchLimits) withDefaults() BenchLimits {
	if l.MaxDuration <= 0 {
		l.MaxDuration = time.Minute
	}
	if l.MaxRate <= 0 {
		l.MaxRate = 2000
	}
	if l.MaxConcurrency <= 0 {
		l.MaxConcurrency = 64
	}
	return l
}

// Handler serves the page and its API.
type Handler struct {
	opts    Options
	token   string
	guard   *guard
	mux     *http.ServeMux
	serve   http.Handler // guarded, with the body timeout
	static  http.Handler
	targets *targets
	ctx     context.Context // ends the WebSocket sessions on Close
	stop    context.CancelFunc
	wsWG    sync.WaitGroup
}

// New returns the page's handler. Close it to drop its connections.
func New(opts Options) (*Handler, error) {
	if opts.Token == "" {
		opts.Token = randomToken()
	}
	if opts.DefaultTimeout <= 0 {
		opts.DefaultTimeout = 10 * time.Second
	}
	opts.Bench = opts.Bench.withDefaults()
	if opts.Codec == nil {
		opts.Codec = func(files *protoregistry.Files) invoke.JSONCodec {
			return invoke.Transcode{Options: transcode.MarshalOptions{Resolver: schema.Types(files)}}
		}
	}
	allow, err := parseAllowlist(opts.Allow)
	if err != nil {
		return nil, err
	}
	sub, _ := fs.Sub(staticFS, "static")
	h := &Handler{
		opts:    opts,
		token:   opts.Token,
		guard:   newGuard(opts.Token, opts.Hosts),
		static:  http.FileServerFS(sub),
		targets: newTargets(&dialPolicy{exposed: opts.Exposed, allow: allow}),
	}
	h.ctx, h.stop = context.WithCancel(context.Background())
	h.routes()
	return h, nil
}

// Token is the secret of the page's URL: open /?token=TOKEN.
func (h *Handler) Token() string { return h.token }

// Close closes every connection the page opened and waits for the
// WebSocket sessions to end.
func (h *Handler) Close() {
	h.stop()
	h.targets.closeAll()
	h.wsWG.Wait()
}

func (h *Handler) routes() {
	m := http.NewServeMux()
	m.HandleFunc("GET /{$}", h.index)
	m.Handle("GET /static/", http.StripPrefix("/static", h.static))
	uplot := http.StripPrefix("/static/vendor", http.FileServerFS(report.UPlot()))
	for _, f := range []string{"uPlot.iife.min.js", "uPlot.min.css", "uPlot.LICENSE"} {
		m.Handle("GET /static/vendor/"+f, uplot) // kept once, in load/report
	}
	m.HandleFunc("GET /api/info", h.info)
	m.HandleFunc("POST /api/connect", h.connect)
	m.HandleFunc("POST /api/disconnect", h.disconnect)
	m.HandleFunc("GET /api/describe", h.describe)
	m.HandleFunc("GET /api/schema", h.messageSchema)
	m.HandleFunc("POST /api/check", h.check)
	m.HandleFunc("POST /api/call", h.call)
	m.HandleFunc("GET /api/ws", h.websocket)
	h.mux = m
	h.serve = bodytimeout.Handler(http.HandlerFunc(h.guarded), h.opts.BodyTimeout)
}

// ServeHTTP checks the request (Host, token, origin), sets the security
// headers, and serves it; its body must arrive within BodyTimeout.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.serve.ServeHTTP(w, r) }

func (h *Handler) guarded(w http.ResponseWriter, r *http.Request) {
	setSecurityHeaders(w)
	if !h.guard.allow(w, r) {
		return
	}
	h.mux.ServeHTTP(w, r)
}

func (h *Handler) index(w http.ResponseWriter, r *http.Request) {
	b, err := staticFS.ReadFile("static/index.html")
	if err != nil {
		http.Error(w, "ui: index missing", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(b)
}

type infoResponse struct {
	Exposed          bool        `json:"exposed"`
	Target           string      `json:"target,omitempty"`
	TargetTLS        bool        `json:"targetTLS,omitempty"`
	DefaultTimeoutMS int64       `json:"defaultTimeoutMs"`
	Bench            benchLimits `json:"bench"`
}

type benchLimits struct {
	MaxDurationS   float64 `json:"maxDurationS"`
	MaxRate        float64 `json:"maxRate"`
	MaxConcurrency int     `json:"maxConcurrency"`
}

func (h *Handler) info(w http.ResponseWriter, r *http.Request) {
	l := h.opts.Bench
	writeJSON(w, http.StatusOK, infoResponse{
		Exposed: h.opts.Exposed, Target: h.opts.Target, TargetTLS: h.opts.TargetTLS,
		DefaultTimeoutMS: h.opts.DefaultTimeout.Milliseconds(),
		Bench:            benchLimits{l.MaxDuration.Seconds(), l.MaxRate, l.MaxConcurrency},
	})
}

func randomToken() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
