package lean

import (
	"strconv"
	"strings"

	"github.com/rpckit/rpckit/invoke/mdvalue"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
)

// maxHeaderListSize bounds a response header block, decoded.
const maxHeaderListSize = 1 << 20

// headerState is the header block the reader is decoding: the stream it is
// for (nil when the stream is gone: the block is still decoded, to keep
// HPACK in step) and whether it ends the stream (trailers).
type headerState struct {
	s        *stream
	trailers bool
	size     int
	tooLarge bool
}

// onHeaders starts a header block on stream id with its first fragment.
// A whole block seen before, of indexed fields only, is taken from
// t.blocksSeen instead of being decoded again.
func (t *transport) onHeaders(id uint32, endStream bool, fragment []byte, endHeaders bool) *connFault {
	s := t.streams.get(id)
	t.hdr = headerState{s: s, trailers: endStream}
	if !endHeaders {
		return t.headerFragment(fragment, false)
	}
	key, ok := indexedKey(fragment)
	if !ok || t.plain {
		return t.headerFragment(fragment, true)
	}
	if fields, ok := t.blocksSeen.lookup(key); ok {
		for _, f := range fields {
			t.onField(f)
		}
		t.endHeaders()
		return nil
	}
	t.capture, t.captured = true, t.captured[:0]
	fault := t.headerFragment(fragment, true)
	if fault == nil {
		t.blocksSeen.add(key, t.captured)
	}
	t.capture = false
	return fault
}

func (t *transport) onContinuation(f *http2.ContinuationFrame) *connFault {
	// The lock was let go since the HEADERS frame: the stream may be gone.
	if t.hdr.s != nil && t.streams.get(f.StreamID) != t.hdr.s {
		t.hdr.s = nil
	}
	return t.headerFragment(f.HeaderBlockFragment(), f.HeadersEnded())
}

func (t *transport) headerFragment(p []byte, end bool) *connFault {
	if !t.capture {
		t.blocksSeen.gen++ // the block may change the decoder's table
	}
	if _, err := t.dec.Write(p); err != nil {
		return &connFault{http2.ErrCodeCompression, err}
	}
	if !end {
		return nil
	}
	if err := t.dec.Close(); err != nil {
		return &connFault{http2.ErrCodeCompression, err}
	}
	t.endHeaders()
	return nil
}

// onField takes one decoded response header field.
func (t *transport) onField(f hpack.HeaderField) {
	if t.capture {
		t.captured = append(t.captured, f)
	}
	h := &t.hdr
	h.size += len(f.Name) + len(f.Value) + 32
	if h.size > maxHeaderListSize {
		h.tooLarge = true
	}
	s := h.s
	if s == nil || h.tooLarge {
		return
	}
	if s.connect() {
		t.connectField(s, f.Name, f.Value)
		return
	}
	switch f.Name {
	case ":status":
		s.httpStatus, _ = strconv.Atoi(f.Value)
	case "content-type":
		s.grpcContent = isGRPCContentType(f.Value) || s.web() && isGRPCWebContentType(f.Value)
	case "grpc-status":
		if n, err := strconv.Atoi(f.Value); err == nil && n >= 0 {
			s.grpcStatus = n
		} else {
			s.grpcStatus = int(codes.Unknown)
			s.grpcMessage = "malformed grpc-status: " + strconv.Quote(f.Value)
		}
	case "grpc-message":
		s.grpcMessage = f.Value
	case "grpc-status-details-bin":
		if d, err := mdvalue.Decode(f.Name, f.Value); err == nil {
			s.details = []byte(d)
		}
	default:
		t.keepMetadata(s, f)
	}
}

// keepMetadata adds a response header or trailer to the MD the call asked
// for.
func (t *transport) keepMetadata(s *stream, f hpack.HeaderField) {
	target := s.opts.Header
	md := &s.header
	if t.hdr.trailers {
		target, md = s.opts.Trailer, &s.trailer
	}
	if target == nil || strings.HasPrefix(f.Name, ":") {
		return
	}
	v := mdvalue.DecodeOrKeep(f.Name, f.Value)
	if *md == nil {
		*md = metadata.MD{}
	}
	(*md)[f.Name] = append((*md)[f.Name], v)
}

func isGRPCContentType(v string) bool {
	rest, ok := strings.CutPrefix(v, "application/grpc")
	return ok && (rest == "" || rest[0] == '+' || rest[0] == ';')
}

func isGRPCWebContentType(v string) bool {
	rest, ok := strings.CutPrefix(v, "application/grpc-web")
	return ok && (rest == "" || rest[0] == '+' || rest[0] == ';')
}

// endHeaders applies a complete header block to its stream: the response
// headers (checked for HTTP 200 and a gRPC content type), or the trailers,
// which end the call.
func (t *transport) endHeaders() {
	h := t.hdr
	t.hdr = headerState{}
	s := h.s
	if s == nil || s.finished {
		return
	}
	if h.tooLarge {
		t.finishLocked(s, errorf(codes.Internal, "response header list larger than %d bytes", maxHeaderListSize), true)
		return
	}
	if s.connect() {
		t.connectHeaders(s, h.trailers)
		return
	}
	if !s.gotHeaders {
		s.gotHeaders = true
		if err := s.checkResponse(h.trailers); err != nil {
			t.finishLocked(s, err, !h.trailers || !s.halfClosed)
			return
		}
		if !h.trailers && s.opts.Header != nil {
			*s.opts.Header = s.header
		}
	}
	if h.trailers {
		if s.opts.Trailer != nil {
			*s.opts.Trailer = s.trailer
		}
		t.endLocked(s)
	}
}

// checkResponse checks the first header block of a response.
func (s *stream) checkResponse(trailersOnly bool) *Error {
	if trailersOnly && s.grpcContent && s.grpcStatus >= 0 {
		return nil // a status, whatever the HTTP one
	}
	if s.httpStatus == 0 {
		return errorf(codes.Internal, "malformed response headers: no :status")
	}
	if s.httpStatus != 200 {
		return httpError(s.httpStatus)
	}
	if !s.grpcContent {
		return errorf(codes.Unknown, "response content-type is not application/grpc")
	}
	return nil
}

// A blockCache remembers the fields of response header blocks made only of
// indexed fields of one byte each, such as a gRPC server's headers and
// trailers once their fields are in its HPACK table: decoding such a block
// does not change the decoder's dynamic table, so while no other block
// has changed it since (gen), the same bytes decode to the same fields.
type blockCache struct {
	gen     uint64 // bumped by every block decoded that is not one of these
	entries [4]cachedBlock
	next    int
}

type cachedBlock struct {
	key    uint64
	gen    uint64
	fields []hpack.HeaderField
}

// indexedKey packs a block of at most 7 one-byte indexed fields (0x81 to
// 0xfe: index 1 to 126) with its length; false for any other block.
func indexedKey(p []byte) (uint64, bool) {
	if len(p) > 7 {
		return 0, false
	}
	key := uint64(len(p)) << 56
	for i, b := range p {
		if b <= 0x80 || b == 0xff {
			return 0, false
		}
		key |= uint64(b) << (8 * i)
	}
	return key, true
}

func (c *blockCache) lookup(key uint64) ([]hpack.HeaderField, bool) {
	for i := range c.entries {
		if e := &c.entries[i]; e.key == key && e.gen == c.gen && e.fields != nil {
			return e.fields, true
		}
	}
	return nil, false
}

// add remembers fields, copied, for key, in place of the oldest entry.
func (c *blockCache) add(key uint64, fields []hpack.HeaderField) {
	e := &c.entries[c.next]
	c.next = (c.next + 1) % len(c.entries)
	e.key, e.gen = key, c.gen
	e.fields = append(e.fields[:0:0], fields...)
	if e.fields == nil {
		e.fields = []hpack.HeaderField{}
	}
}
