package gateway

import (
	"bytes"
	"context"
	"net/http"

	"github.com/rpckit/rpckit/invoke"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// unary serves a unary call: the request message from the body or the
// query, the response message as the body.
func (c *connectCall) unary(ctx context.Context) {
	buf := getBuf()
	raw, req, err := c.unaryRequest((*buf)[:0])
	defer func() { putBuf(buf, raw) }()
	if err != nil {
		c.unaryError(err, nil, nil)
		return
	}
	resp, err := c.g.opts.Conn.Unary(ctx, c.route.Method, req)
	if err != nil {
		c.unaryError(err, resp.Header, resp.Trailer)
		return
	}
	body, err := c.responseMessage(raw[:0], resp.Message)
	if err != nil {
		c.unaryError(err, resp.Header, resp.Trailer)
		return
	}
	raw = body
	c.unaryResponse(body, resp)
}

// unaryRequest reads the request message, from the body (appended to dst,
// returned as raw for reuse) or from a GET's query, decompressed and in
// wire form.
func (c *connectCall) unaryRequest(dst []byte) (raw, wire []byte, err error) {
	limit := c.g.opts.MaxBodyBytes
	var gz bool
	if c.mode.get {
		if gz, err = compression(c.r.URL.Query().Get("compression")); err != nil {
			return dst, nil, err
		}
		if raw, err = getMessage(c.r); err != nil {
			return dst, nil, err
		}
	} else {
		if gz, err = compression(c.r.Header.Get("Content-Encoding")); err != nil {
			return dst, nil, err
		}
		raw, err = readAll(dst, http.MaxBytesReader(c.w, c.r.Body, limit), min(c.r.ContentLength, limit))
		if err != nil {
			return raw, nil, bodyError(err, "reading body")
		}
	}
	msg := raw
	if gz {
		if msg, err = gunzip(msg, limit); err != nil {
			return raw, nil, err
		}
	}
	wire, err = c.requestMessage(msg)
	return raw, wire, err
}

// requestMessage is the wire form of a request message in the call's
// codec.
func (c *connectCall) requestMessage(msg []byte) ([]byte, error) {
	if c.mode.codec == "proto" {
		return msg, nil
	}
	if len(bytes.TrimSpace(msg)) == 0 {
		msg = []byte("{}")
	}
	wire, err := c.st.codec.Encode(make([]byte, 0, len(msg)), c.route.Method.Input(), msg)
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	return wire, nil
}

// responseMessage appends to dst a response message in the call's codec,
// after the masks.
func (c *connectCall) responseMessage(dst, msg []byte) ([]byte, error) {
	out := c.route.Method.Output()
	msg, err := c.st.mask(out, msg)
	if err != nil {
		return nil, err
	}
	if c.mode.codec == "proto" {
		return append(dst, msg...), nil
	}
	return c.st.codec.Decode(dst, out, msg)
}

// unaryResponse writes a unary call's response: header metadata as
// headers, trailers as Trailer-* headers, the message gzipped when the
// client accepts it and it is worth it.
func (c *connectCall) unaryResponse(body []byte, resp *invoke.Response) {
	h := c.w.Header()
	copyWebMetadata(h, resp.Header)
	trailerHeaders(h, resp.Trailer)
	if len(body) >= minCompress && acceptsGzip(c.r.Header.Get("Accept-Encoding")) {
		body = gzipAppend(nil, body)
		h.Set("Content-Encoding", "gzip")
	}
	writeBody(c.w, http.StatusOK, "application/"+c.mode.codec, body)
}

// unaryError writes a unary call's error: a Connect error as JSON, with
// the HTTP status of its code, and the metadata the upstream sent.
func (c *connectCall) unaryError(err error, header, trailer metadata.MD) {
	st := status.Convert(err)
	c.code = st.Code()
	h := c.w.Header()
	copyWebMetadata(h, header)
	trailerHeaders(h, trailer)
	writeBody(c.w, HTTPStatus(st.Code()), "application/json", connectErrorJSON(c.st, st))
}
