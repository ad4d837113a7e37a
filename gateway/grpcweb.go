package gateway

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/rpckit/rpckit/invoke"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// gRPC-Web: a request whose Content-Type is application/grpc-web(+proto)
// or application/grpc-web-text(+proto), POSTed to /pkg.Service/Method,
// is proxied to the upstream as a gRPC call. The body holds length-prefixed
// messages (base64 in the -text mode); the response carries the messages the
// same way and ends with a trailer frame (flag 0x80) holding grpc-status,
// grpc-message and the trailer metadata, since browsers cannot read HTTP
// trailers. A call that fails before its first message answers
// trailers-only: the status in the HTTP headers and an empty body.
// Unary and server-streaming methods only: gRPC-Web has no client streams.

// webMode tells whether a request is gRPC-Web, and which flavour.
type webMode struct {
	text        bool   // base64 body (application/grpc-web-text)
	contentType string // of the response, the request's flavour with +proto
	codec       string // after "+": "" or "proto" are served
}

func grpcWebMode(r *http.Request) (webMode, bool) {
	base, codec, _ := strings.Cut(baseMediaType(r.Header.Get("Content-Type")), "+")
	switch base {
	case "application/grpc-web":
		return webMode{contentType: "application/grpc-web+proto", codec: codec}, true
	case "application/grpc-web-text":
		return webMode{text: true, contentType: "application/grpc-web-text+proto", codec: codec}, true
	}
	return webMode{}, false
}

// baseMediaType is the media type of a Content-Type, lower case, without
// parameters.
func baseMediaType(contentType string) string {
	ct, _, _ := strings.Cut(contentType, ";")
	return strings.ToLower(strings.TrimSpace(ct))
}

// webCall is one gRPC-Web request being served.
type webCall struct {
	g      *Gateway
	st     *state
	route  *Route
	mode   webMode
	w      http.ResponseWriter
	r      *http.Request
	out    webWriter
	status codes.Code // the call's outcome, for metrics and logs
}

// serveGRPCWeb answers a gRPC-Web request; it returns the route served
// (nil when the path names no method) and the call's gRPC status code.
func (g *Gateway) serveGRPCWeb(st *state, w http.ResponseWriter, r *http.Request, mode webMode) (*Route, codes.Code) {
	c := &webCall{g: g, st: st, mode: mode, w: w, r: r, out: webWriter{w: w, text: mode.text}}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeRoutingError(w, http.StatusMethodNotAllowed, "gRPC-Web calls are POST requests")
		return nil, codes.Unimplemented
	}
	if st == nil {
		c.finish(status.Error(codes.Unavailable, notLoaded), nil)
		return nil, c.status
	}
	c.route = st.methods[r.URL.Path]
	c.run()
	return c.route, c.status
}

// run serves the call within its deadline, once it is one gRPC-Web can
// carry.
func (c *webCall) run() {
	if err := c.unserved(); err != nil {
		c.finish(err, nil)
		return
	}
	ctx, cancel, err := c.g.callContext(c.r)
	if err != nil {
		c.finish(err, nil)
		return
	}
	defer cancel()
	c.call(ctx)
}

// unserved says why the call cannot be served (UNIMPLEMENTED), or is nil.
func (c *webCall) unserved() error {
	switch {
	case c.mode.codec != "" && c.mode.codec != "proto":
		return status.Errorf(codes.Unimplemented, "gRPC-Web codec %q is not served, only proto", c.mode.codec)
	case c.route == nil:
		return status.Errorf(codes.Unimplemented, "unknown method %s", c.r.URL.Path)
	case c.route.Method.IsStreamingClient():
		return status.Errorf(codes.Unimplemented, "%s is a client or bidi stream, which gRPC-Web cannot carry", c.route.Method.FullName())
	}
	return nil
}

// call reads the request and makes the unary or server-streaming call.
func (c *webCall) call(ctx context.Context) {
	req, err := c.request()
	switch {
	case err != nil:
		c.finish(err, nil)
	case c.route.Method.IsStreamingServer():
		c.serverStream(ctx, req)
	default:
		c.unary(ctx, req)
	}
}

// unary makes a unary call and writes its response and trailer.
func (c *webCall) unary(ctx context.Context, req []byte) {
	resp, err := c.g.opts.Conn.Unary(ctx, c.route.Method, req)
	if err == nil {
		c.out.header(resp.Header, c.mode.contentType)
		err = c.message(resp.Message)
	}
	c.finishWith(err, resp.Header, resp.Trailer)
}

// request reads the one request message of the body.
func (c *webCall) request() ([]byte, error) {
	var body io.Reader = http.MaxBytesReader(c.w, c.r.Body, c.g.opts.MaxBodyBytes)
	if c.mode.text {
		body = newWebTextReader(body)
	}
	msgs, err := readWebFrames(body, c.g.opts.MaxBodyBytes)
	if _, ok := status.FromError(err); err != nil && !ok {
		err = bodyError(err, "")
	}
	if err != nil {
		return nil, err // a frame's own status: too large, compressed
	}
	if len(msgs) != 1 {
		return nil, status.Errorf(codes.InvalidArgument, "gRPC-Web request to %s has %d messages, want 1", c.route.Method.FullName(), len(msgs))
	}
	return msgs[0], nil
}

// serverStream sends one request and streams the responses.
func (c *webCall) serverStream(ctx context.Context, req []byte) {
	st, err := c.g.openServerStream(ctx, c.route.Method, req)
	if err != nil {
		c.finish(err, nil)
		return
	}
	c.relay(st)
}

// relay copies response messages to the client until the call ends, then
// writes the trailer.
func (c *webCall) relay(st *invoke.Stream) {
	hdr, _ := st.Header()
	for {
		msg, err := st.Recv()
		if err == nil {
			c.out.header(hdr, c.mode.contentType)
			if err = c.message(msg); err == nil {
				continue
			}
		}
		if errors.Is(err, io.EOF) {
			err = nil
		}
		c.finishWith(err, hdr, st.Trailer())
		return
	}
}

// message writes one response message, masked as configured.
func (c *webCall) message(msg []byte) error {
	msg, err := c.st.mask(c.route.Method.Output(), msg)
	if err != nil {
		return err
	}
	return c.out.frame(webFrameData, msg)
}

// finishWith ends a call that may have sent its headers already.
func (c *webCall) finishWith(err error, header, trailer metadata.MD) {
	if !c.out.started {
		c.out.headerMD = header
	}
	c.finish(err, trailer)
}

// finish ends the call with err's status (OK when nil): a trailer frame
// after messages, or a trailers-only response when nothing was sent.
func (c *webCall) finish(err error, trailer metadata.MD) {
	st := status.Convert(err)
	c.status = st.Code()
	if c.out.started {
		_ = c.out.frame(webFrameTrailer, webTrailer(st, trailer))
		return
	}
	c.out.trailersOnly(st, trailer, c.mode.contentType)
}
