package lean

import (
	"context"
	"encoding/binary"
	"slices"
	"sync"

	"golang.org/x/net/http2"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
)

// A stream is one call on a transport. Streams are pooled: a call takes
// one, and gives it back once the stream has left the transport's table and
// the call has its result. All fields but the channels are guarded by the
// transport's mutex.
type stream struct {
	t        *transport
	id       uint32
	m        *Method
	opts     *CallOptions
	deadline deadline

	done chan struct{} // one token when the stream finishes
	wake chan struct{} // a send window opened, or the stream finished

	sendWin    int64
	halfClosed bool // END_STREAM sent
	finished   bool
	waitWin    bool // in t.winWaiters
	sending    bool // the call sends more after its first write: wake it when done
	dlPos      int  // 1 + its index in t.deadlines; 0 when not there

	// The ctx watch the call waits under, if any (watch.go).
	ctx          context.Context
	watch        *ctxWatch
	wprev, wnext *stream
	err          *Error

	// Response state, written by the reader goroutine.
	gotHeaders  bool
	httpStatus  int
	grpcContent bool
	grpcStatus  int // -1 until seen
	grpcMessage string
	details     []byte
	header      metadata.MD
	trailer     metadata.MD
	msgs        int
	recvUnacked int

	// Deframing: a 5-byte prefix, then a body of remain bytes.
	prefix  [5]byte
	prefixN int
	inBody  bool
	remain  int
	body    []byte
	// gRPC-Web: the frame being read is the trailer frame (prefix flag
	// 0x80), and once it is whole, webEnded.
	webTrailer bool
	webEnded   bool
}

var streamPool = sync.Pool{New: func() any {
	return &stream{done: make(chan struct{}, 1), wake: make(chan struct{}, 1)}
}}

func getStream(t *transport, m *Method, opts *CallOptions) *stream {
	s := streamPool.Get().(*stream)
	s.t, s.m, s.opts = t, m, opts
	s.grpcStatus = -1
	return s
}

// put resets s and returns it to the pool; s must be out of every table.
func (s *stream) put() {
	body := s.body[:0]
	if cap(body) > 64<<10 {
		body = nil
	}
	select {
	case <-s.wake:
	default:
	}
	*s = stream{done: s.done, wake: s.wake, body: body}
	streamPool.Put(s)
}

// signal wakes a sender waiting on s; it never blocks.
func (s *stream) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// finishLocked ends s with err (nil: OK), removes it from the transport,
// frees its slot and resets the stream on the wire when rst is set and the
// stream is still open there.
func (t *transport) finishLocked(s *stream, err *Error, rst bool) {
	if s.finished {
		return
	}
	s.finished = true
	s.err = err
	t.streams.remove(s)
	if s.dlPos > 0 {
		t.unwatchDeadlineLocked(s)
	}
	if s.watch != nil {
		t.unwatchCtxLocked(s)
	}
	if rst && t.err == nil {
		t.fw.WriteRSTStream(s.id, http2.ErrCodeCancel)
		t.kickLocked()
	}
	if s.waitWin {
		s.waitWin = false
		if i := slices.Index(t.winWaiters, s); i >= 0 {
			t.winWaiters = slices.Delete(t.winWaiters, i, i+1)
		}
	}
	t.releaseLocked()
	if s.sending {
		s.signal()
	}
	s.done <- struct{}{}
	t.closeIfIdleLocked()
}

// endLocked ends s on the server's END_STREAM: its status is the one the
// trailers gave.
func (t *transport) endLocked(s *stream) {
	err := s.status()
	if err == nil && !s.m.serverStreams && s.msgs != 1 {
		err = errorf(codes.Internal, "cardinality violation: a unary response has %d messages", s.msgs)
	}
	t.finishLocked(s, err, !s.halfClosed)
}

// status is the call's status from the response headers and trailers.
func (s *stream) status() *Error {
	if s.grpcStatus < 0 {
		if s.httpStatus != 0 && s.httpStatus != 200 {
			return httpError(s.httpStatus)
		}
		return errorf(codes.Internal, "server closed the stream without sending a grpc-status trailer")
	}
	if s.grpcStatus == 0 {
		return nil
	}
	return &Error{Code: codes.Code(s.grpcStatus), Message: decodeMessage(s.grpcMessage), Details: s.details}
}

// deframe reads gRPC messages from DATA payload p, handing each complete
// one to the call's OnMessage. It copies only a message split over frames.
func (s *stream) deframe(p []byte, maxSize int) *Error {
	for len(p) > 0 {
		if !s.inBody {
			n := copy(s.prefix[s.prefixN:], p)
			s.prefixN += n
			p = p[n:]
			if s.prefixN < 5 {
				return nil
			}
			if err := s.startMessage(maxSize); err != nil {
				return err
			}
			if s.remain == 0 {
				s.deliver(nil)
			}
			continue
		}
		n := min(s.remain, len(p))
		s.remain -= n
		if s.remain == 0 && len(s.body) == 0 {
			s.deliver(p[:n]) // the whole message is in this frame
		} else if s.opts.OnMessage != nil || s.webTrailer {
			s.body = append(s.body, p[:n]...)
			if s.remain == 0 {
				s.deliver(s.body)
				s.body = s.body[:0]
			}
		} else if s.remain == 0 {
			s.deliver(nil)
		}
		p = p[n:]
	}
	return nil
}

func (s *stream) startMessage(maxSize int) *Error {
	s.prefixN = 0
	if s.webEnded {
		return errorf(codes.Internal, "gRPC-Web data after the trailer frame")
	}
	s.webTrailer = s.web() && s.prefix[0]&0x80 != 0
	if s.prefix[0]&1 != 0 {
		return errorf(codes.Internal, "compressed response message, and no compression was asked for")
	}
	size := binary.BigEndian.Uint32(s.prefix[1:])
	if uint64(size) > uint64(maxSize) {
		return errorf(codes.ResourceExhausted, "received message larger than max (%d vs. %d)", size, maxSize)
	}
	s.remain = int(size)
	s.inBody = s.remain > 0
	return nil
}

func (s *stream) deliver(msg []byte) {
	s.inBody = false
	if s.webTrailer {
		s.webTrailer, s.webEnded = false, true
		s.webTrailers(msg)
		return
	}
	s.msgs++
	if cb := s.opts.OnMessage; cb != nil {
		if msg == nil {
			msg = []byte{}
		}
		cb(msg)
	}
}
