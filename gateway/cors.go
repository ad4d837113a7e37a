package gateway

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// corsHeaders are the request headers a cross-origin caller may send
// besides Options.Headers and Grpc-Metadata-*: those of REST, gRPC-Web
// and Connect clients.
var corsHeaders = []string{
	"accept", "authorization", "content-type", "grpc-timeout", "x-grpc-web",
	"x-request-id", "x-user-agent", "connect-protocol-version", "connect-timeout-ms",
	"connect-content-encoding", "connect-accept-encoding", "content-encoding",
}

// corsExposed are the response headers scripts may read on every
// response; metadata headers are added as they are written.
const corsExposed = "Grpc-Status, Grpc-Message, Grpc-Status-Details-Bin"

// cors answers CORS: it sets the headers for allowed origins, and answers
// a preflight itself (true when it did).
func (g *Gateway) cors(w http.ResponseWriter, r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" || !g.originAllowed(origin) {
		return false
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", origin)
	h.Add("Vary", "Origin")
	h.Set("Access-Control-Expose-Headers", corsExposed)
	if r.Method != http.MethodOptions || r.Header.Get("Access-Control-Request-Method") == "" {
		return false
	}
	h.Set("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE, OPTIONS")
	if allowed := g.corsAllowed(r.Header.Get("Access-Control-Request-Headers")); allowed != "" {
		h.Set("Access-Control-Allow-Headers", allowed)
	}
	h.Set("Access-Control-Max-Age", strconv.Itoa(int((10 * time.Minute).Seconds())))
	w.WriteHeader(http.StatusNoContent)
	return true
}

func (g *Gateway) originAllowed(origin string) bool {
	return slices.ContainsFunc(g.opts.CORSOrigins, func(o string) bool {
		return o == "*" || strings.EqualFold(o, origin)
	})
}

// corsAllowed keeps, of the headers a preflight asks for, those the
// gateway reads or forwards; the browser refuses the call if one is left
// out, as the gateway would drop it.
func (g *Gateway) corsAllowed(requested string) string {
	var out []string
	for _, name := range strings.Split(requested, ",") {
		name = strings.TrimSpace(name)
		lower := strings.ToLower(name)
		if name != "" && (slices.Contains(corsHeaders, lower) || g.allowed(lower) ||
			strings.HasPrefix(lower, "grpc-metadata-")) {
			out = append(out, name)
		}
	}
	return strings.Join(out, ", ")
}

// exposeHeader lets cross-origin scripts read a response header, when the
// response is cross-origin.
func exposeHeader(h http.Header, name string) {
	if h.Get("Access-Control-Allow-Origin") == "" {
		return
	}
	exposed := h.Get("Access-Control-Expose-Headers")
	if slices.ContainsFunc(strings.Split(exposed, ","), func(e string) bool { return strings.EqualFold(strings.TrimSpace(e), name) }) {
		return
	}
	h.Set("Access-Control-Expose-Headers", exposed+", "+name)
}
