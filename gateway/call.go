package gateway

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/invoke"
	"github.com/rpckit/rpckit/invoke/mdvalue"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// call is one HTTP request being served.
type call struct {
	g     *Gateway
	st    *state
	route *Route
	w     http.ResponseWriter
	r     *http.Request
	code  codes.Code // the call's outcome, for the access log
}

// run serves the call within its deadline; vars are the path variables.
func (c *call) run(vars map[string]string) {
	ctx, cancel, err := c.context()
	if err != nil {
		c.fail(err)
		return
	}
	defer cancel()
	c.dispatch(ctx, vars)
}

// dispatch serves the call as its method's kind asks: a client stream
// reads its requests from the body, the others build the one request
// first.
func (c *call) dispatch(ctx context.Context, vars map[string]string) {
	if c.route.Method.IsStreamingClient() {
		c.clientStream(ctx, vars)
		return
	}
	req, err := c.request(vars)
	switch {
	case err != nil:
		c.fail(err)
	case c.route.Method.IsStreamingServer():
		c.serverStream(ctx, req)
	default:
		c.unary(ctx, req)
	}
}

// unary makes a unary call and writes its response or error.
func (c *call) unary(ctx context.Context, req []byte) {
	resp, err := c.g.opts.Conn.Unary(ctx, c.route.Method, req)
	c.writeMetadata(resp.Header)
	if err != nil {
		c.writeTrailers(resp.Trailer)
		c.fail(err)
		return
	}
	c.respond(resp.Message, resp.Trailer)
}

// context carries the forwarded headers as metadata and the deadline.
func (c *call) context() (context.Context, context.CancelFunc, error) {
	return c.g.callContext(c.r)
}

// callContext is the context of the upstream call of r: the forwarded
// headers as metadata, and the Grpc-Timeout deadline or the default one.
func (g *Gateway) callContext(r *http.Request) (context.Context, context.CancelFunc, error) {
	timeout := g.opts.Timeout
	if v := r.Header.Get("Grpc-Timeout"); v != "" {
		d, err := parseGRPCTimeout(v)
		if err != nil {
			return nil, nil, status.Errorf(codes.InvalidArgument, "Grpc-Timeout %q: %v", v, err)
		}
		timeout = d
	}
	return g.contextWithin(r, timeout)
}

// contextWithin is the context of the upstream call of r: the forwarded
// headers as metadata, and the deadline timeout from now.
func (g *Gateway) contextWithin(r *http.Request, timeout time.Duration) (context.Context, context.CancelFunc, error) {
	md, err := g.forwarded(r)
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithTimeout(r.Context(), timeout)
	return metadata.NewOutgoingContext(ctx, md), cancel, nil
}

// request builds the request message: the body (all of it, or one field),
// then the path variables and query parameters, appended as wire records so
// that protobuf's merge puts them in place.
func (c *call) request(vars map[string]string) ([]byte, error) {
	buf := getBuf()
	raw, body, err := c.body((*buf)[:0])
	defer putBuf(buf, raw)
	if err != nil {
		return nil, err
	}
	// The wire form is mostly shorter than the JSON: one allocation.
	wire, err := c.st.codec.Encode(make([]byte, 0, len(body)+16), c.route.Method.Input(), body)
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	query := c.r.URL.Query()
	if wire, err = c.appendParams(wire, vars, query); err != nil {
		return nil, err
	}
	return c.appendImpliedMask(wire, query, raw)
}

// appendParams appends to wire the path variables and, unless the body
// is the whole message, the query parameters.
func (c *call) appendParams(wire []byte, vars map[string]string, query url.Values) ([]byte, error) {
	p := newParams(c.st.codec.types.Type(c.route.Method.Input()), c.st.codec.unmarshal)
	for field, v := range vars {
		if err := p.set(field, []string{v}); err != nil {
			return nil, status.Errorf(codes.InvalidArgument, "path: %v", err)
		}
	}
	if c.route.Body != "*" {
		bound := func(name string) bool { return vars[name] != "" || name == c.route.Body }
		if err := p.fromQuery(query, bound); err != nil {
			return nil, status.Error(codes.InvalidArgument, err.Error())
		}
	}
	return append(wire, p.wire...), nil
}

// appendImpliedMask appends to wire the update_mask a PATCH route's body
// implies (raw, as sent), unless the route has none or the query sets it.
func (c *call) appendImpliedMask(wire []byte, query url.Values, raw []byte) ([]byte, error) {
	mask := c.route.updateMaskField()
	if mask == nil || query.Has(string(mask.Name())) || query.Has(mask.JSONName()) {
		return wire, nil
	}
	fds, _ := fieldPath(c.route.Method.Input(), c.route.Body)
	wire, err := appendUpdateMask(wire, mask, fds[len(fds)-1].Message(), raw)
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	return wire, nil
}

// body reads the JSON that becomes the request message, "{}" when the
// route takes none: raw as sent (appended to dst), and as the request
// message (the body wrapped in its field when the route names one).
func (c *call) body(dst []byte) (raw, msg []byte, err error) {
	if c.route.Body == "" {
		return dst, []byte("{}"), nil
	}
	b, err := readAll(dst, http.MaxBytesReader(c.w, c.r.Body, c.g.opts.MaxBodyBytes), min(c.r.ContentLength, c.g.opts.MaxBodyBytes))
	if err != nil {
		return b, nil, bodyError(err, "reading body")
	}
	if len(bytes.TrimSpace(b)) == 0 {
		b = append(b[:0], "{}"...)
	}
	if c.route.Body == "*" {
		return b, b, nil
	}
	fds, _ := fieldPath(c.route.Method.Input(), c.route.Body)
	name, _ := json.Marshal(fds[0].JSONName())
	return b, fmt.Appendf(nil, "{%s:%s}", name, b), nil
}

// respond writes a unary response: the whole message, or its
// response_body field, after the masks.
func (c *call) respond(msg []byte, trailer metadata.MD) {
	buf := getBuf()
	js, err := c.responseJSON((*buf)[:0], msg)
	if err != nil {
		putBuf(buf, *buf)
		c.fail(err)
		return
	}
	js = append(js, '\n')
	c.writeTrailers(trailer)
	writeBody(c.w, http.StatusOK, "application/json", js)
	putBuf(buf, js)
}

// writeBody writes a whole response: the status, the body and its
// Content-Type and Content-Length.
func writeBody(w http.ResponseWriter, httpStatus int, contentType string, body []byte) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(httpStatus)
	_, _ = w.Write(body)
}

// responseJSON appends to dst the JSON of a response message.
func (c *call) responseJSON(dst, msg []byte) ([]byte, error) {
	out := c.route.Method.Output()
	msg, err := c.st.mask(out, msg)
	if err != nil {
		return nil, err
	}
	if c.route.ResponseBody == "" {
		return c.st.codec.Decode(dst, out, msg)
	}
	return c.responseField(dst, msg)
}

// responseField renders one field of the response, as response_body asks:
// dynamic keeps that field alone on the wire, transcode prints what is
// left, and the field's value is cut out of that one-key object ("null"
// when the field is unset).
func (c *call) responseField(dst, msg []byte) ([]byte, error) {
	out := c.route.Method.Output()
	buf := getBuf()
	kept, err := dynamic.NewValue(c.st.codec.types.Type(out), msg).Keep((*buf)[:0], c.st.bodies[c.route])
	defer putBuf(buf, kept)
	if err != nil {
		return nil, status.Errorf(codes.Internal, "gateway: response_body of %s: %v", out.FullName(), err)
	}
	start := len(dst)
	js, err := c.st.codec.Decode(dst, out, kept)
	if err != nil {
		return nil, err
	}
	return onlyValue(js, start), nil
}

// onlyValue replaces the compact JSON object at js[start:], which has one
// key or none, by its value, or by null when it is empty.
func onlyValue(js []byte, start int) []byte {
	obj := js[start:]
	if len(obj) <= len("{}") {
		return append(js[:start], "null"...)
	}
	i := 2 // past the key's opening quote
	for obj[i] != '"' {
		if obj[i] == '\\' {
			i++
		}
		i++
	}
	n := copy(obj, obj[i+len(`":`):len(obj)-1])
	return js[:start+n]
}

// fail writes err as a JSON google.rpc.Status with the HTTP status of its
// code.
func (c *call) fail(err error) {
	st := status.Convert(err)
	c.code = st.Code()
	c.w.Header().Set("Content-Type", "application/json")
	c.w.WriteHeader(httpStatus(err, st.Code()))
	_, _ = c.w.Write(append(c.statusJSON(st), '\n'))
}

// statusJSON is st as a JSON google.rpc.Status.
func (c *call) statusJSON(st *status.Status) []byte {
	body, err := invoke.StatusJSON(c.st.codec, st)
	if err != nil {
		body, _ = json.Marshal(map[string]any{"code": st.Code(), "message": st.Message()})
	}
	return body
}

// writeRoutingError answers a request no method serves.
func writeRoutingError(w http.ResponseWriter, httpStatus int, msg string) {
	code := codes.NotFound
	switch httpStatus {
	case http.StatusMethodNotAllowed:
		code = codes.Unimplemented
	case http.StatusRequestEntityTooLarge:
		code = codes.ResourceExhausted
	case http.StatusBadRequest:
		code = codes.InvalidArgument
	case http.StatusServiceUnavailable:
		code = codes.Unavailable
	}
	body, _ := json.Marshal(map[string]any{"code": int(code), "message": msg, "details": []any{}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(httpStatus)
	_, _ = w.Write(append(body, '\n'))
}

// forwarded picks the request headers that become metadata: the
// allowlist, and Grpc-Metadata-* with the prefix removed. Keys that are not
// valid metadata, the transport's own (grpc-*), and those the gateway sets
// itself are left out; -bin values are base64-decoded, and a value gRPC
// cannot carry (not base64, or text outside printable ASCII) is the
// client's error, INVALID_ARGUMENT. Like grpc-gateway, it adds
// x-forwarded-host (the Host) and x-forwarded-for (the peer, after any
// X-Forwarded-For the request came with).
func (g *Gateway) forwarded(r *http.Request) (metadata.MD, error) {
	md := metadata.MD{}
	for k, vs := range r.Header {
		key, ok := g.metadataKey(k)
		if !ok || !forwardable(key) {
			continue
		}
		for _, v := range vs {
			v, err := metadataFromHeader(key, v)
			if err != nil {
				return nil, status.Errorf(codes.InvalidArgument, "header %s: %v", k, err)
			}
			md[key] = append(md[key], v)
		}
	}
	addForwardedFor(md, r)
	return md, nil
}

// addForwardedFor sets x-forwarded-host and x-forwarded-for in md.
func addForwardedFor(md metadata.MD, r *http.Request) {
	md["x-forwarded-host"] = []string{cmp.Or(r.Header.Get("X-Forwarded-Host"), r.Host)}
	if ip, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		if fwd := r.Header.Get("X-Forwarded-For"); fwd != "" {
			ip = fwd + ", " + ip
		}
		md["x-forwarded-for"] = []string{ip}
	}
}

// metadataFromHeader is the metadata value of a forwarded header's value:
// -bin values base64-decoded (padded or not), others as they are, which
// gRPC allows only in printable ASCII.
func metadataFromHeader(key, v string) (string, error) {
	if mdvalue.IsBinary(key) {
		return mdvalue.Decode(key, v)
	}
	for i := range len(v) {
		if v[i] < 0x20 || v[i] > 0x7e {
			return "", fmt.Errorf("byte 0x%02x at offset %d: gRPC metadata values are printable ASCII (send others base64 in a -bin header)", v[i], i)
		}
	}
	return v, nil
}

// metadataKey is the metadata key of a forwarded header; the common
// headers that are not forwarded cost no allocation.
func (g *Gateway) metadataKey(header string) (string, bool) {
	const prefix = "grpc-metadata-"
	if len(header) > len(prefix) && strings.EqualFold(header[:len(prefix)], prefix) {
		return strings.ToLower(header[len(prefix):]), true
	}
	if strings.EqualFold(header, "authorization") || strings.EqualFold(header, "x-request-id") || g.allowed(header) {
		return strings.ToLower(header), true
	}
	return "", false
}

// forwardable reports whether key may be sent as request metadata.
func forwardable(key string) bool {
	if key == "" || strings.HasPrefix(key, "grpc-") || key == "x-forwarded-for" || key == "x-forwarded-host" {
		return false
	}
	for i := range len(key) {
		c := key[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

func (g *Gateway) allowed(header string) bool {
	for _, a := range g.opts.Headers {
		if strings.EqualFold(a, header) {
			return true
		}
	}
	return false
}

// writeMetadata sends response headers as Grpc-Metadata-*.
func (c *call) writeMetadata(md metadata.MD) { c.copyMetadata("Grpc-Metadata-", md) }

// writeTrailers sends response trailers as Grpc-Trailer-* headers.
func (c *call) writeTrailers(md metadata.MD) { c.copyMetadata("Grpc-Trailer-", md) }

// copyMetadata copies application metadata into response headers; the
// transport's own keys (content-type, grpc-*) stay out, and binary values
// are base64, as headers must be text.
func (c *call) copyMetadata(prefix string, md metadata.MD) {
	for k, vs := range md {
		if k == "content-type" || strings.HasPrefix(k, "grpc-") {
			continue
		}
		for _, v := range vs {
			c.w.Header().Add(prefix+k, mdvalue.Text(k, v))
		}
		exposeHeader(c.w.Header(), prefix+k)
	}
}
