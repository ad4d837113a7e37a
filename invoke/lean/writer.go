package lean

import (
	"runtime"
	"slices"
	"time"

	"golang.org/x/net/http2"
)

// Frames are appended to t.wbuf under t.mu; the writer goroutine takes the
// whole buffer and writes it in one call. Before it takes it, the writer
// yields, so that the calls made ready by the same read (all running on
// this goroutine's CPU) add their frames first: one write carries them all.

// kickLocked tells the writer there is something to write.
func (t *transport) kickLocked() {
	if t.kicked {
		return
	}
	t.kicked = true
	select {
	case t.flushCh <- struct{}{}:
	default:
	}
}

func (t *transport) writeLoop() {
	var out []byte
	for {
		select {
		case <-t.flushCh:
		case <-t.closed:
			return
		}
		runtime.Gosched()
		t.mu.Lock()
		out, t.wbuf = t.wbuf, out[:0]
		t.kicked = false
		t.mu.Unlock()
		if len(out) == 0 {
			continue
		}
		if _, err := t.conn.Write(out); err != nil {
			t.fail(err)
			return
		}
		if cap(out) > 4<<20 {
			out = nil // a burst of large messages: do not keep its buffer
		}
	}
}

// flushLocked writes what is buffered now, bounded in time, before the
// connection is closed (a GOAWAY).
func (t *transport) flushLocked() {
	if t.err != nil || len(t.wbuf) == 0 {
		return
	}
	t.conn.SetWriteDeadline(time.Now().Add(time.Second))
	t.conn.Write(t.wbuf)
	t.wbuf = t.wbuf[:0]
}

// appendFrameHeader appends an HTTP/2 frame header.
func appendFrameHeader(b []byte, length int, typ http2.FrameType, flags http2.Flags, id uint32) []byte {
	return append(b, byte(length>>16), byte(length>>8), byte(length), byte(typ), byte(flags),
		byte(id>>24)&0x7f, byte(id>>16), byte(id>>8), byte(id))
}

// writeDataLocked appends as much of p as the send windows and the frame
// size allow, in DATA frames, the last with END_STREAM when end is set
// and all of p went; it returns what is left.
func (t *transport) writeDataLocked(s *stream, p []byte, end bool) []byte {
	for {
		n := int(min(int64(len(p)), s.sendWin, t.sendWin, int64(t.maxFrame)))
		if n <= 0 && len(p) > 0 {
			return p
		}
		var flags http2.Flags
		if end && n == len(p) {
			flags = http2.FlagDataEndStream
			s.halfClosed = true
		}
		t.wbuf = appendFrameHeader(t.wbuf, n, http2.FrameData, flags, s.id)
		t.wbuf = append(t.wbuf, p[:n]...)
		s.sendWin -= int64(n)
		t.sendWin -= int64(n)
		p = p[n:]
		if len(p) == 0 {
			return nil
		}
	}
}

// waitWindowLocked registers s as waiting for a send window.
func (t *transport) waitWindowLocked(s *stream) {
	if !s.waitWin {
		s.waitWin = true
		t.winWaiters = append(t.winWaiters, s)
	}
}

// wakeSendersLocked wakes every stream waiting for a window: the
// connection's grew, or all streams' did.
func (t *transport) wakeSendersLocked() {
	for _, s := range t.winWaiters {
		s.waitWin = false
		s.signal()
	}
	t.winWaiters = t.winWaiters[:0]
}

func (t *transport) wakeSenderLocked(s *stream) {
	s.waitWin = false
	if i := slices.Index(t.winWaiters, s); i >= 0 {
		t.winWaiters = slices.Delete(t.winWaiters, i, i+1)
	}
	s.signal()
}
