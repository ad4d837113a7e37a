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

func (s *streamWriter) message(js []byte) {
	if s.n == 0 {
		s.w.WriteHeader(http.StatusOK)
	}
	s.n++
	if s.sse {
		fmt.Fprintf(s.w, "data: %s\n\n", js)
	} else {
		fmt.Fprintf(s.w, "{\"result\":%s}\n", js)
	}
	http.NewResponseController(s.w).Flush()
}

// fail writes an error as the stream's last item; when nothing was sent
// yet, the HTTP status tells the code too (as grpc-gateway does).
func (s *streamWriter) fail(httpStatus int, statusJSON []byte) {
	if s.n == 0 {
		s.w.WriteHeader(httpStatus)
	}
	if s.sse {
		fmt.Fprintf(s.w, "event: error\ndata: %s\n\n", statusJSON)
	} else {
		fmt.Fprintf(s.w, "{\"error\":%s}\n", statusJSON)
	}
	http.NewResponseController(s.w).Flush()
}

// serverStream sends one request and streams the responses.
func (c *call) serverStream(ctx context.Context, req []byte) {
	st, err := c.g.opts.Conn.NewStream(ctx, c.route.Method)
	if err != nil {
		c.fail(err)
		return
	}
	if err := st.Send(req); err != nil && !errors.Is(err, io.EOF) {
		c.fail(err)
		return
	}
	_ = st.CloseSend()
	c.relay(st, nil)
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
	sendErr := make(chan error, 1)
	p := startPump(func(stopped *atomic.Bool) {
		err := c.sendBody(st, stopped)
		sendErr <- err
		if err != nil {
			cancel()
		}
	})
	if c.route.Method.IsStreamingServer() {
		c.relay(st, sendErr)
		p.stop(c.w, c.r)
		return
	}
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
