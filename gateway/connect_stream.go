package gateway

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"

	"github.com/rpckit/rpckit/internal/bodytimeout"
	"github.com/rpckit/rpckit/invoke"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// A Connect stream's messages are enveloped both ways: a flags byte, a
// 4-byte big-endian length, the message. The response always has HTTP
// status 200, and ends with an end-stream envelope holding the call's
// error, if any, and its trailers as JSON.

// Flags of a Connect envelope.
const (
	envelopeCompressed byte = 0x01
	envelopeEndStream  byte = 0x02
)

// stream serves a streaming call.
func (c *connectCall) stream(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := c.newEnvelopeWriter()
	in, st, err := c.openStream(ctx)
	if err != nil {
		c.fail(err)
		return
	}
	if c.route.Method.IsStreamingClient() {
		c.duplex(out, in, st, cancel)
		return
	}
	if err := c.sendOne(st, in); err != nil {
		c.fail(err)
		return
	}
	c.relay(out, st, nil)
}

// openStream readies the reader of the body's requests and opens the
// upstream stream.
func (c *connectCall) openStream(ctx context.Context) (*envelopeReader, *invoke.Stream, error) {
	in, err := c.newEnvelopeReader()
	if err != nil {
		return nil, nil, err
	}
	if c.route.Method.IsStreamingClient() {
		// Responses may flow while requests still arrive, on HTTP/1.1 too.
		_ = http.NewResponseController(c.w).EnableFullDuplex()
	}
	st, err := c.g.opts.Conn.NewStream(ctx, c.route.Method)
	return in, st, err
}

// duplex sends the body's requests from a pump while it relays the
// responses; bad input cancels the call.
func (c *connectCall) duplex(out *envelopeWriter, in *envelopeReader, st *invoke.Stream, cancel context.CancelFunc) {
	p := startPump(cancel, func(stopped *atomic.Bool) error {
		in.stopped = stopped
		return c.sendAll(st, in)
	})
	c.relay(out, st, p.err)
	p.stop(c.w, c.r)
}

// sendOne sends the one request of a server stream.
func (c *connectCall) sendOne(st *invoke.Stream, in *envelopeReader) error {
	msg, err := in.next()
	if errors.Is(err, io.EOF) {
		return status.Errorf(codes.InvalidArgument, "gateway: %s takes one request, the body has none", c.route.Method.FullName())
	}
	if err != nil {
		return err
	}
	if _, err := in.next(); !errors.Is(err, io.EOF) {
		if err == nil {
			err = status.Errorf(codes.InvalidArgument, "gateway: %s takes one request, the body has more", c.route.Method.FullName())
		}
		return err
	}
	wire, err := c.requestMessage(msg)
	if err != nil {
		return err
	}
	if err := st.Send(wire); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return st.CloseSend()
}

// sendAll sends the body's requests and half-closes the call once they
// are all sent. Bad input leaves the call open for stream's cancel to end.
func (c *connectCall) sendAll(st *invoke.Stream, in *envelopeReader) error {
	for n := 1; ; n++ {
		msg, err := in.next()
		if errors.Is(err, io.EOF) {
			_ = st.CloseSend()
			return nil
		}
		if err != nil {
			return err
		}
		wire, err := c.requestMessage(msg)
		if err != nil {
			return status.Errorf(codes.InvalidArgument, "request %d: %v", n, status.Convert(err).Message())
		}
		if err := st.Send(wire); err != nil {
			return nil // the upstream ended the call; its status says why
		}
	}
}

// relay copies response messages to the client until the call ends, then
// writes the end-stream message. sendErr is as for call.relay.
func (c *connectCall) relay(out *envelopeWriter, st *invoke.Stream, sendErr <-chan error) {
	hdr, _ := st.Header()
	out.header(hdr)
	var buf []byte
	for {
		msg, err := st.Recv()
		if err == nil {
			if buf, err = c.responseMessage(buf[:0], msg); err == nil {
				if err = out.write(0, buf); err == nil {
					continue
				}
			}
		}
		if errors.Is(err, io.EOF) {
			err = nil
		}
		if serr := sendError(sendErr, err); serr != nil {
			err = serr
		}
		c.endStream(out, err, st.Trailer())
		return
	}
}

// endStream writes the end-stream message with err's status (OK when nil)
// and the trailers.
func (c *connectCall) endStream(out *envelopeWriter, err error, trailer metadata.MD) {
	s := status.Convert(err)
	c.code = s.Code()
	_ = out.write(envelopeEndStream, endStreamJSON(c.st, s, trailer))
}

// envelopeWriter writes a Connect stream's response.
type envelopeWriter struct {
	w           http.ResponseWriter
	contentType string
	gzip        bool // the client accepts gzip
	started     bool
	buf         []byte
}

func (c *connectCall) newEnvelopeWriter() *envelopeWriter {
	return &envelopeWriter{
		w:           c.w,
		contentType: "application/connect+" + c.mode.codec,
		gzip:        acceptsGzip(c.r.Header.Get("Connect-Accept-Encoding")),
	}
}

// header sends the HTTP headers with the upstream's header metadata, once.
func (o *envelopeWriter) header(md metadata.MD) {
	if o.started {
		return
	}
	o.started = true
	h := o.w.Header()
	h.Set("Content-Type", o.contentType)
	if o.gzip {
		h.Set("Connect-Content-Encoding", "gzip")
	}
	copyWebMetadata(h, md)
	o.w.WriteHeader(http.StatusOK)
}

// write writes one envelope, gzipped when the client accepts it and the
// message is worth it, and flushes it.
func (o *envelopeWriter) write(flags byte, msg []byte) error {
	o.header(nil)
	o.buf = append(o.buf[:0], flags, 0, 0, 0, 0)
	if o.gzip && len(msg) >= minCompress {
		o.buf[0] |= envelopeCompressed
		o.buf = gzipAppend(o.buf, msg)
	} else {
		o.buf = append(o.buf, msg...)
	}
	binary.BigEndian.PutUint32(o.buf[1:5], uint32(len(o.buf)-5))
	if _, err := o.w.Write(o.buf); err != nil {
		return status.Errorf(codes.Canceled, "gateway: writing the response: %v", err)
	}
	_ = http.NewResponseController(o.w).Flush()
	return nil
}

// envelopeReader reads a Connect stream's request messages.
type envelopeReader struct {
	r     io.Reader
	limit int64
	gzip  bool // Connect-Content-Encoding: gzip
	clock *bodytimeout.Body
	n     int // envelopes read
	// stopped, when set, says the call is over: the body is not read again.
	stopped *atomic.Bool
}

func (c *connectCall) newEnvelopeReader() (*envelopeReader, error) {
	gz, err := compression(c.r.Header.Get("Connect-Content-Encoding"))
	if err != nil {
		return nil, err
	}
	clock, _ := c.r.Body.(*bodytimeout.Body)
	return &envelopeReader{
		r:     http.MaxBytesReader(c.w, c.r.Body, c.g.opts.MaxBodyBytes),
		limit: c.g.opts.MaxBodyBytes,
		gzip:  gz,
		clock: clock,
	}, nil
}

// next reads the next message, decompressed; io.EOF after the last.
func (e *envelopeReader) next() ([]byte, error) {
	if e.stopped != nil && e.stopped.Load() {
		return nil, status.Error(codes.Canceled, "gateway: the call is over")
	}
	flags, n, err := e.header()
	if err != nil {
		return nil, err
	}
	msg := make([]byte, n)
	if _, err := io.ReadFull(e.r, msg); err != nil {
		return nil, e.readError(err, fmt.Sprintf("message of %d bytes", n))
	}
	if e.clock != nil {
		e.clock.Idle() // waiting for the next message is not reading it
	}
	if flags&envelopeCompressed != 0 {
		return gunzip(msg, e.limit)
	}
	return msg, nil
}

// header reads the next envelope's flags and message length, and checks
// them; io.EOF when the body ends before it.
func (e *envelopeReader) header() (flags byte, n int64, err error) {
	var hdr [5]byte
	_, err = io.ReadFull(e.r, hdr[:])
	if errors.Is(err, io.EOF) {
		return 0, 0, io.EOF
	}
	e.n++
	if err != nil {
		return 0, 0, e.readError(err, "header")
	}
	n = int64(binary.BigEndian.Uint32(hdr[1:]))
	return hdr[0], n, e.check(hdr[0], n)
}

func (e *envelopeReader) readError(err error, what string) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return status.Errorf(codes.InvalidArgument, "gateway: request envelope %d: %s cut short", e.n, what)
	}
	return bodyError(err, fmt.Sprintf("request envelope %d", e.n))
}

func (e *envelopeReader) check(flags byte, n int64) error {
	switch {
	case flags&envelopeEndStream != 0:
		return status.Errorf(codes.InvalidArgument, "gateway: request envelope %d: end-stream flag in a request", e.n)
	case flags&^envelopeCompressed != 0:
		return status.Errorf(codes.InvalidArgument, "gateway: request envelope %d: unknown flags 0x%02x", e.n, flags)
	case flags&envelopeCompressed != 0 && !e.gzip:
		return status.Errorf(codes.InvalidArgument, "gateway: request envelope %d: compressed, but the request has no Connect-Content-Encoding", e.n)
	case n > e.limit:
		return status.Errorf(codes.ResourceExhausted, "gateway: request envelope %d: message of %d bytes, past the limit of %d", e.n, n, e.limit)
	}
	return nil
}
