package gateway

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

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
	h.Set("Access-Control-Expose-Headers", "Grpc-Status, Grpc-Message, Grpc-Status-Details-Bin, Grpc-Metadata-*, Grpc-Trailer-*")
	if r.Method != http.MethodOptions || r.Header.Get("Access-Control-Request-Method") == "" {
		return false
	}
	h.Set("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE, OPTIONS")
	if req := r.Header.Get("Access-Control-Request-Headers"); req != "" {
		h.Set("Access-Control-Allow-Headers", req)
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
