package gateway

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/rpckit/rpckit/internal/bodytimeout"
	"github.com/rpckit/rpckit/invoke"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// A streamed response is newline-delimited JSON, each line
// {"result": message} and, when the call fails, a last line
// {"error": status} (grpc-gateway's framing; a call that fails before its
// first message also gets the code's HTTP status); or Server-Sent Events
// when the client accepts text/event-stream: "data: message" events, and
// an "error" event for a failure.
type streamWriter struct {
	w   http.ResponseWriter
	sse bool
	n   int
}

func newStreamWriter(w http.ResponseWriter, r *http.Request) *streamWriter {
	sse := strings.Contains(r.Header.Get("Accept"), "text/event-stream")
	ct := "application/x-ndjson"
	if sse {
		ct = "text/event-stream"
	}
	w.Header().Set("Content-Type", ct)
	return &streamWriter{w: w, sse: sse}
}

// message writes one response message.
func (s *streamWriter) message(js []byte) {
	s.item(http.StatusOK, "data: %s\n\n", "{\"result\":%s}\n", js)
	s.n++
}

// fail writes an error as the stream's last item; when nothing was sent
// yet, the HTTP status tells the code too (as grpc-gateway does).
func (s *streamWriter) fail(httpStatus int, statusJSON []byte) {
	s.item(httpStatus, "event: error\ndata: %s\n\n", "{\"error\":%s}\n", statusJSON)
}

// item writes js in the stream's framing, sseFormat or ndjsonFormat, and
// flushes it; the first item sends the headers with httpStatus.
func (s *streamWriter) item(httpStatus int, sseFormat, ndjsonFormat string, js []byte) {
	if s.n == 0 {
		s.w.WriteHeader(httpStatus)
	}
	format := ndjsonFormat
	if s.sse {
		format = sseFormat
	}
	fmt.Fprintf(s.w, format, js)
	http.NewResponseController(s.w).Flush()
}

// serverStream sends one request and streams the responses.
func (c *call) serverStream(ctx context.Context, req []byte) {
	st, err := c.g.openServerStream(ctx, c.route.Method, req)
	if err != nil {
		c.fail(err)
		return
	}
	c.relay(st, nil)
}

// openServerStream opens a server stream of md and sends its one request,
// half-closing it. A Send that finds the call ended (io.EOF) is no error
// here: the stream's status, on Recv, says why.
func (g *Gateway) openServerStream(ctx context.Context, md protoreflect.MethodDescriptor, req []byte) (*invoke.Stream, error) {
	st, err := g.opts.Conn.NewStream(ctx, md)
	if err != nil {
		return nil, err
	}
	if err := st.Send(req); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	_ = st.CloseSend()
	return st, nil
}

// relay copies response messages to the client until the call ends. When
// the requests come from the body, sendErr gives the error that ended
// sending them, if any: bad input cancels the call, and the client is told
// of the input rather than of the cancelling.
func (c *call) relay(st *invoke.Stream, sendErr <-chan error) {
	out := newStreamWriter(c.w, c.r)
	hdr, _ := st.Header()
	c.writeMetadata(hdr)
	for {
		msg, err := st.Recv()
		if errors.Is(err, io.EOF) {
			if out.n == 0 {
				c.w.WriteHeader(http.StatusOK)
			}
			return
		}
		if err == nil {
			var js []byte
			if js, err = c.responseJSON(nil, msg); err == nil {
				out.message(js)
				continue
			}
		}
		if serr := sendError(sendErr, err); serr != nil {
			err = serr
		}
		c.streamFail(out, err)
		return
	}
}

// sendError is the error that ended sending the body's requests, when
// that is what ended the call (recvErr): a cancelled call waits for it,
// since a body that fails to arrive can cancel the request's context (an
// HTTP/1.1 read error does) before the sender has said why.
func sendError(sendErr <-chan error, recvErr error) error {
	if sendErr == nil {
		return nil
	}
	if status.Code(recvErr) == codes.Canceled {
		return <-sendErr
	}
	select {
	case err := <-sendErr: // sent before the call is cancelled
		return err
	default:
		return nil
	}
}

func (c *call) streamFail(out *streamWriter, err error) {
	st := status.Convert(err)
	c.code = st.Code()
	out.fail(httpStatus(err, st.Code()), c.statusJSON(st))
}

// clientStream reads request messages from a newline-delimited JSON body,
// sending each as it arrives (HTTP/2 lets responses flow back meanwhile),
// and streams or writes the responses.
func (c *call) clientStream(ctx context.Context, vars map[string]string) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	st, err := c.g.opts.Conn.NewStream(ctx, c.route.Method)
	if err != nil {
		c.fail(err)
		return
	}
	p := startPump(cancel, func(stopped *atomic.Bool) error { return c.sendBody(st, stopped) })
	if c.route.Method.IsStreamingServer() {
		c.relay(st, p.err)
		p.stop(c.w, c.r)
		return
	}
	c.respondOnce(st, p.err)
}

// respondOnce answers a client stream with its one response, or with the
// error that ended sending the requests, which says more than the
// cancelled call's.
func (c *call) respondOnce(st *invoke.Stream, sendErr <-chan error) {
	msg, err := st.Recv()
	if serr := <-sendErr; serr != nil {
		err = serr
	}
	if err != nil {
		c.fail(err)
		return
	}
	c.respond(msg, st.Trailer())
}

// sendBody sends the body's requests and half-closes the call once they
// are all sent. Bad input leaves the call open for clientStream's cancel
// to end: half closed, it could end normally on the requests sent so far.
func (c *call) sendBody(st *invoke.Stream, stopped *atomic.Bool) error {
	err := c.sendRequests(st, stopped)
	if err == nil {
		_ = st.CloseSend()
	}
	return err
}

func (c *call) sendRequests(st *invoke.Stream, stopped *atomic.Bool) error {
	dec := c.st.codec.decoder(http.MaxBytesReader(c.w, c.r.Body, c.g.opts.MaxBodyBytes), c.route.Method.Input())
	clock, _ := c.r.Body.(*bodytimeout.Body)
	for n := 1; !stopped.Load(); n++ {
		wire, err := dec.Next(nil)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return bodyError(err, fmt.Sprintf("request %d", n))
		}
		nextMessage(clock, dec.Buffered())
		if err := st.Send(wire); err != nil {
			return nil // the upstream ended the call; its status says why
		}
	}
	return nil // the call is over
}

// nextMessage times the next request of a stream body: from its first
// byte when none of it is read yet (waiting for a message is not reading
// one), else from now. buffered is what the decoder holds of it.
func nextMessage(clock *bodytimeout.Body, buffered []byte) {
	if clock == nil {
		return
	}
	if len(bytes.TrimLeft(buffered, " \t\r\n")) == 0 {
		clock.Idle()
		return
	}
	clock.Restart()
}
