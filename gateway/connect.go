package gateway

import (
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/descriptorpb"
)

// Connect: requests at POST /pkg.Service/Method (and GET, for methods
// whose idempotency_level is NO_SIDE_EFFECTS) in the Connect protocol are
// proxied to the upstream as gRPC calls. Connect shares its paths with
// the default REST routes; a request is Connect, as Vanguard decides, when
//
//   - its Content-Type is application/connect+<codec> (a stream), or
//   - its Content-Type is application/<anything> and it has the header
//     Connect-Protocol-Version: 1 (unary; GET or POST), or
//   - it is a GET with the query parameter connect=v1 (unary GET).
//
// Everything else at those paths is REST (application/json without the
// header included). The codecs served are proto and json.

// connectMode is how a Connect request is framed.
type connectMode struct {
	stream bool   // application/connect+codec: enveloped messages
	get    bool   // unary GET: the message is in the query
	codec  string // "proto", "json", or what else the client named
}

// connectModeOf tells whether r is a Connect request, and how it is framed.
func connectModeOf(r *http.Request) (connectMode, bool) {
	cts := r.Header.Values("Content-Type")
	switch {
	case len(cts) == 0:
		return bareGetMode(r)
	case len(cts) > 1:
		return connectMode{}, false
	}
	ct := baseMediaType(cts[0])
	if codec, ok := strings.CutPrefix(ct, "application/connect+"); ok {
		return connectMode{stream: true, codec: codec}, true
	}
	codec, ok := strings.CutPrefix(ct, "application/")
	if !ok {
		return connectMode{}, false
	}
	if connectVersion(r) {
		return connectMode{get: r.Method == http.MethodGet, codec: codec}, true
	}
	if r.Method == http.MethodGet && connectQuery(r) {
		return connectMode{get: true}, true
	}
	return connectMode{}, false
}

// bareGetMode is the mode of a request without a Content-Type: a Connect
// GET when it says it is one.
func bareGetMode(r *http.Request) (connectMode, bool) {
	if r.Method == http.MethodGet && (connectVersion(r) || connectQuery(r)) {
		return connectMode{get: true}, true
	}
	return connectMode{}, false
}

func connectVersion(r *http.Request) bool {
	v := r.Header.Values("Connect-Protocol-Version")
	return len(v) == 1 && v[0] == "1"
}

func connectQuery(r *http.Request) bool {
	return strings.Contains(r.URL.RawQuery, "connect=v1") && r.URL.Query().Get("connect") == "v1"
}

// connectCall is one Connect request being served.
type connectCall struct {
	g     *Gateway
	st    *state
	route *Route
	mode  connectMode
	w     http.ResponseWriter
	r     *http.Request
	code  codes.Code // the call's outcome, for metrics and logs
}

// serveConnect answers a Connect request; it returns the route served (nil
// when the path names no method) and the call's gRPC status code.
func (g *Gateway) serveConnect(st *state, w http.ResponseWriter, r *http.Request, mode connectMode) (*Route, codes.Code) {
	c := &connectCall{g: g, st: st, mode: mode, w: w, r: r}
	if mode.get {
		mode.codec = r.URL.Query().Get("encoding")
		c.mode = mode
	}
	if st == nil {
		c.reject(http.StatusServiceUnavailable, codes.Unavailable, notLoaded)
		return nil, c.code
	}
	c.route = st.methods[r.URL.Path]
	if c.admit() {
		c.run()
	}
	return c.route, c.code
}

// admit checks what the request asks for against the method, answering
// the request itself when it cannot be served.
func (c *connectCall) admit() bool {
	switch {
	case c.route == nil:
		c.reject(http.StatusNotFound, codes.Unimplemented, "unknown method "+c.r.URL.Path)
	case c.mode.get && c.mode.codec == "":
		c.reject(http.StatusBadRequest, codes.InvalidArgument, "Connect GET without the encoding query parameter")
	case c.mode.get && !noSideEffects(c.route):
		c.w.Header().Set("Allow", http.MethodPost)
		c.reject(http.StatusMethodNotAllowed, codes.Unimplemented, "Connect GET serves only methods with idempotency_level NO_SIDE_EFFECTS")
	case !c.mode.get && c.r.Method != http.MethodPost:
		c.w.Header().Set("Allow", http.MethodPost)
		c.reject(http.StatusMethodNotAllowed, codes.Unimplemented, "Connect calls are POST requests")
	case c.mode.codec != "proto" && c.mode.codec != "json":
		c.reject(http.StatusUnsupportedMediaType, codes.Unimplemented, "Connect codec "+strconv.Quote(c.mode.codec)+" is not served, only proto and json")
	case c.mode.stream == isUnary(c.route):
		c.reject(http.StatusUnsupportedMediaType, codes.Unimplemented, c.kindMismatch())
	case c.route.Method.IsStreamingClient() && c.route.Method.IsStreamingServer() && c.r.ProtoMajor < 2:
		c.w.Header().Set("Connection", "close") // a client waiting for full duplex would hang
		c.reject(http.StatusHTTPVersionNotSupported, codes.Unimplemented, "bidi streams need HTTP/2")
	default:
		return true
	}
	return false
}

func (c *connectCall) kindMismatch() string {
	if c.mode.stream {
		return string(c.route.Method.FullName()) + " is unary: send it as application/proto or application/json"
	}
	return string(c.route.Method.FullName()) + " is a stream: send it as application/connect+proto or application/connect+json"
}

func isUnary(r *Route) bool { return !r.Method.IsStreamingClient() && !r.Method.IsStreamingServer() }

func noSideEffects(r *Route) bool {
	opts, _ := r.Method.Options().(*descriptorpb.MethodOptions)
	return opts.GetIdempotencyLevel() == descriptorpb.MethodOptions_NO_SIDE_EFFECTS
}

// reject answers a request that reaches no upstream call, in the unary
// error shape (with httpStatus) whatever the request's framing.
func (c *connectCall) reject(httpStatus int, code codes.Code, msg string) {
	c.code = code
	writeBody(c.w, httpStatus, "application/json", connectErrorJSON(c.st, status.New(code, "gateway: "+msg)))
}

func (c *connectCall) run() {
	timeout, err := connectTimeout(c.r, c.g.opts.Timeout)
	if err != nil {
		c.fail(err)
		return
	}
	ctx, cancel, err := c.g.contextWithin(c.r, timeout)
	if err != nil {
		c.fail(err)
		return
	}
	defer cancel()
	if c.mode.stream {
		c.stream(ctx)
		return
	}
	c.unary(ctx)
}

// fail ends the call with err before it reached the upstream.
func (c *connectCall) fail(err error) {
	if c.mode.stream {
		out := c.newEnvelopeWriter()
		out.header(nil)
		c.endStream(out, err, nil)
		return
	}
	c.unaryError(err, nil, nil)
}

// timeoutDigits is the most digits Connect-Timeout-Ms may have.
const timeoutDigits = 10

// connectTimeout is the call's timeout: Connect-Timeout-Ms, or def.
func connectTimeout(r *http.Request, def time.Duration) (time.Duration, error) {
	v := r.Header.Get("Connect-Timeout-Ms")
	if v == "" {
		return def, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || len(v) > timeoutDigits || n < 0 || v[0] < '0' || v[0] > '9' {
		return 0, status.Errorf(codes.InvalidArgument, "gateway: Connect-Timeout-Ms %q: want 1 to %d digits", v, timeoutDigits)
	}
	return time.Duration(n) * time.Millisecond, nil
}

// getMessage is the request message of a unary GET: the message query
// parameter, in URL-safe base64 (padded or not) when base64=1.
func getMessage(r *http.Request) ([]byte, error) {
	q := r.URL.Query()
	msg := q.Get("message")
	if q.Get("base64") != "1" {
		return []byte(msg), nil
	}
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(msg, "="))
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "gateway: query parameter message: bad base64: %v", err)
	}
	return b, nil
}
