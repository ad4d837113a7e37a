package lean

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"time"

	"golang.org/x/net/http2"
	"google.golang.org/grpc/codes"
)

// A connFault is a connection error: the reader sends GOAWAY with code and
// closes the connection.
type connFault struct {
	code http2.ErrCode
	err  error
}

// readLoop reads frames until the connection fails, applying each under
// the transport's mutex.
func (t *transport) readLoop() {
	for {
		if t.br.Buffered() == 0 {
			// Read what there is, so that its first frame too may be
			// taken from the buffer. An error is the one the Framer
			// would have met reading the frame header.
			if _, err := t.br.Peek(1); err != nil {
				t.readError(err)
				return
			}
		}
		if fh, payload, ok := t.bufferedFrame(); ok {
			if t.applyAllBuffered(fh, payload) {
				return
			}
			continue
		}
		f, err := t.readFrame()
		if err != nil {
			if t.streamError(err) {
				continue
			}
			t.readError(err)
			return
		}
		t.mu.Lock()
		done := t.endApply(t.apply(f))
		t.mu.Unlock()
		if done {
			return
		}
	}
}

// maxBatch bounds the frames applied under one hold of the mutex.
const maxBatch = 64

// applyAllBuffered applies the frame bufferedFrame gave and those after
// it that it gives too, up to maxBatch, under one hold of the mutex; it
// reports whether the connection is done.
func (t *transport) applyAllBuffered(fh http2.FrameHeader, payload []byte) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for range maxBatch {
		done := t.endApply(t.applyBuffered(fh, payload))
		t.br.Discard(frameHeaderLen + len(payload))
		if done {
			return true
		}
		var ok bool
		if fh, payload, ok = t.bufferedFrame(); !ok {
			break
		}
	}
	return false
}

// endApply ends the connection on a fault; it reports whether the
// connection is done. It runs with t.mu held.
func (t *transport) endApply(fault *connFault) bool {
	if fault != nil {
		t.fw.WriteGoAway(0, fault.code, nil)
		t.flushLocked()
		t.failLocked(fault.err, connError(fault.err))
	}
	return t.err != nil
}

// readFrame reads a frame with the Framer, noting whether a header block
// goes on past it as the Framer does, so that bufferedFrame knows when
// CONTINUATION frames must come next.
func (t *transport) readFrame() (http2.Frame, error) {
	fh, err := t.fr.ReadFrameHeader()
	if err != nil {
		return nil, err
	}
	if fh.Type == http2.FrameHeaders || fh.Type == http2.FrameContinuation {
		t.midBlock = !fh.Flags.Has(http2.FlagHeadersEndHeaders)
	}
	return t.fr.ReadFrameForHeader(fh)
}

const frameHeaderLen = 9

// bufferedFrame returns the next frame when it is whole in the read buffer
// and is one that the Framer would take as it is: a DATA frame without
// padding, or a HEADERS frame with its whole block, without padding or
// priority, on a stream, outside another header block. Its payload is
// valid until the frame is discarded from the buffer. Every other frame,
// and one not yet read in full, is for the Framer.
func (t *transport) bufferedFrame() (http2.FrameHeader, []byte, bool) {
	var fh http2.FrameHeader
	if t.midBlock || t.plain || t.br.Buffered() < frameHeaderLen {
		return fh, nil, false
	}
	b, _ := t.br.Peek(frameHeaderLen)
	n := int(b[0])<<16 | int(b[1])<<8 | int(b[2])
	fh = http2.FrameHeader{Type: http2.FrameType(b[3]), Flags: http2.Flags(b[4]),
		Length: uint32(n), StreamID: binary.BigEndian.Uint32(b[5:]) & (1<<31 - 1)}
	if fh.StreamID == 0 || t.br.Buffered() < frameHeaderLen+n {
		return fh, nil, false
	}
	switch fh.Type {
	case http2.FrameData:
		if fh.Flags.Has(http2.FlagDataPadded) {
			return fh, nil, false
		}
	case http2.FrameHeaders:
		if fh.Flags&(http2.FlagHeadersPadded|http2.FlagHeadersPriority) != 0 || !fh.Flags.Has(http2.FlagHeadersEndHeaders) {
			return fh, nil, false
		}
	default:
		return fh, nil, false
	}
	b, _ = t.br.Peek(frameHeaderLen + n)
	return fh, b[frameHeaderLen:], true
}

// applyBuffered applies a frame bufferedFrame gave; it runs with t.mu held.
func (t *transport) applyBuffered(fh http2.FrameHeader, payload []byte) *connFault {
	end := fh.Flags.Has(http2.FlagDataEndStream) // the same bit for HEADERS
	if fh.Type == http2.FrameData {
		return t.onData(fh.StreamID, int(fh.Length), payload, end)
	}
	return t.onHeaders(fh.StreamID, end, payload, true)
}

// streamError resets the stream a frame's stream error is about; it
// reports whether err was one (the connection goes on).
func (t *transport) streamError(err error) bool {
	var se http2.StreamError
	if !errors.As(err, &se) {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if s := t.streams.get(se.StreamID); s != nil {
		t.finishLocked(s, errorf(codes.Internal, "protocol error on the stream: %v", se), true)
	}
	return t.err == nil
}

// readError ends the connection on a read error.
func (t *transport) readError(err error) {
	var ce http2.ConnectionError
	if errors.As(err, &ce) {
		if d := t.fr.ErrorDetail(); d != nil {
			err = fmt.Errorf("%v: %v", ce, d)
		}
		t.mu.Lock()
		t.fw.WriteGoAway(0, http2.ErrCode(ce), nil)
		t.flushLocked()
		t.failLocked(err, connError(err))
		t.mu.Unlock()
		return
	}
	if errors.Is(err, io.EOF) {
		err = errors.New("the server closed the connection")
	}
	t.fail(err)
}

// apply applies one frame; it runs with t.mu held.
func (t *transport) apply(f http2.Frame) *connFault {
	switch f := f.(type) {
	case *http2.DataFrame:
		return t.onData(f.StreamID, int(f.Length), f.Data(), f.StreamEnded())
	case *http2.HeadersFrame:
		return t.onHeaders(f.StreamID, f.StreamEnded(), f.HeaderBlockFragment(), f.HeadersEnded())
	case *http2.ContinuationFrame:
		return t.onContinuation(f)
	case *http2.RSTStreamFrame:
		t.onReset(f)
	case *http2.SettingsFrame:
		if err := t.onSettings(f); err != nil {
			return &connFault{http2.ErrCodeProtocol, err}
		}
	case *http2.PingFrame:
		t.onPing(f)
	case *http2.GoAwayFrame:
		t.onGoAway(f)
	case *http2.WindowUpdateFrame:
		return t.onWindowUpdate(f)
	case *http2.PushPromiseFrame:
		return &connFault{http2.ErrCodeProtocol, errors.New("PUSH_PROMISE received, and push is disabled")}
	}
	return nil
}

// onData deframes a DATA frame (of n bytes with padding, data without)
// into its stream and gives the flow-control credit back in batches: to the
// connection at once, to the stream unless the frame ended it.
func (t *transport) onData(id uint32, n int, data []byte, endStream bool) *connFault {
	t.connUnacked += n
	if t.connUnacked > int(t.opts.ConnWindowSize) {
		return &connFault{http2.ErrCodeFlowControl, errors.New("the server sent more than the connection window")}
	}
	if t.connUnacked >= int(t.opts.ConnWindowSize)/4 {
		t.fw.WriteWindowUpdate(0, uint32(t.connUnacked))
		t.connUnacked = 0
		t.kickLocked()
	}
	s := t.streams.get(id)
	if s == nil || s.finished {
		return nil
	}
	if !s.gotHeaders {
		t.finishLocked(s, errorf(codes.Internal, "DATA before the response headers"), true)
		return nil
	}
	if s.connect() {
		if !t.connectData(s, data, endStream, t.opts.MaxRecvMsgSize) {
			t.creditStreamLocked(s, n)
		}
		return nil
	}
	if err := s.deframe(data, t.opts.MaxRecvMsgSize); err != nil {
		t.finishLocked(s, err, true)
		return nil
	}
	if s.webEnded {
		t.endWebLocked(s)
		return nil
	}
	if !s.m.serverStreams && s.msgs > 1 {
		t.finishLocked(s, errorf(codes.Internal, "cardinality violation: a unary response has more than one message"), true)
		return nil
	}
	if endStream && s.web() && s.grpcStatus >= 0 {
		t.endWebLocked(s) // gRPC-Web's status in the headers, with no body
		return nil
	}
	if endStream {
		t.finishLocked(s, errorf(codes.Internal, "server closed the stream without sending trailers"), !s.halfClosed)
		return nil
	}
	t.creditStreamLocked(s, n)
	return nil
}

// creditStreamLocked gives a stream's receive window back once a quarter
// of it is used.
func (t *transport) creditStreamLocked(s *stream, n int) {
	s.recvUnacked += n
	if s.recvUnacked > int(t.opts.WindowSize) {
		t.finishLocked(s, errorf(codes.Internal, "the server sent more than the stream window"), true)
		return
	}
	if s.recvUnacked >= int(t.opts.WindowSize)/4 {
		t.fw.WriteWindowUpdate(s.id, uint32(s.recvUnacked))
		s.recvUnacked = 0
		t.kickLocked()
	}
}

func (t *transport) onReset(f *http2.RSTStreamFrame) {
	s := t.streams.get(f.StreamID)
	if s == nil {
		return
	}
	err := rstError(f.ErrCode)
	switch {
	case f.ErrCode == http2.ErrCodeRefusedStream && s.msgs == 0:
		err = errRefused
	case f.ErrCode == http2.ErrCodeCancel && s.deadline.has() && !time.Now().Before(s.deadline.time()):
		// The server cancels a call past its grpc-timeout.
		err = ctxError(context.DeadlineExceeded)
	}
	t.finishLocked(s, err, false)
}

// onSettings applies the server's settings and acknowledges them.
func (t *transport) onSettings(f *http2.SettingsFrame) error {
	if f.IsAck() {
		return nil
	}
	for i := range f.NumSettings() {
		if err := t.applySetting(f.Setting(i)); err != nil {
			return err
		}
	}
	t.fw.WriteSettingsAck()
	t.kickLocked()
	return nil
}

func (t *transport) applySetting(s http2.Setting) error {
	if err := s.Valid(); err != nil {
		return err
	}
	switch s.ID {
	case http2.SettingMaxConcurrentStreams:
		t.maxStreams = int(min(s.Val, 1<<31-1))
		t.grantLocked()
	case http2.SettingInitialWindowSize:
		delta := int64(s.Val) - t.initSendWin
		t.initSendWin = int64(s.Val)
		for _, st := range t.streams.all() {
			st.sendWin += delta
		}
		if delta > 0 {
			t.wakeSendersLocked()
		}
	case http2.SettingMaxFrameSize:
		t.maxFrame = int(s.Val)
	case http2.SettingHeaderTableSize:
		t.setTableSizeLocked(s.Val)
	}
	return nil
}

func (t *transport) onPing(f *http2.PingFrame) {
	if f.IsAck() {
		t.pingAck.Store(time.Now().UnixNano())
		return
	}
	t.fw.WritePing(true, f.Data)
	t.kickLocked()
}

// onGoAway stops new streams; the streams the server will not process end
// with errRefused, so their calls are made again on a new connection.
func (t *transport) onGoAway(f *http2.GoAwayFrame) {
	t.stopNewStreamsLocked()
	for _, s := range t.streams.all() {
		if s.id > f.LastStreamID {
			t.finishLocked(s, errRefused, false)
		}
	}
	t.closeIfIdleLocked()
}

func (t *transport) onWindowUpdate(f *http2.WindowUpdateFrame) *connFault {
	inc := int64(f.Increment)
	if f.StreamID == 0 {
		t.sendWin += inc
		if t.sendWin > 1<<31-1 {
			return &connFault{http2.ErrCodeFlowControl, errors.New("connection send window overflow")}
		}
		t.wakeSendersLocked()
		return nil
	}
	s := t.streams.get(f.StreamID)
	if s == nil {
		return nil
	}
	s.sendWin += inc
	if s.sendWin > 1<<31-1 {
		t.finishLocked(s, errorf(codes.Internal, "stream send window overflow"), true)
		return nil
	}
	if s.waitWin {
		t.wakeSenderLocked(s)
	}
	return nil
}
