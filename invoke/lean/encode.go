package lean

import (
	"strconv"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// Request headers. A Method's block is encoded once per connection with
// the connection's HPACK encoder: the first time its fields go into the
// dynamic table (while they fit in a budget below the table's size, so
// nothing is ever evicted), and the block kept for later calls refers to
// them by index. The table changes only when a block adds fields or the
// server changes its size; either bumps t.gen, and blocks of an older
// generation are encoded again. Past the budget, fields are sent as
// literals that never enter the table. Per call, only the stream id in the
// frame header and grpc-timeout (a literal, never indexed) are written.

// maxBlocks bounds the methods whose blocks a connection keeps.
const maxBlocks = 1024

// headerBlockLocked returns m's header block for this call.
func (t *transport) headerBlockLocked(m *Method) []byte {
	if t.lastMethod == m && t.lastBlock.gen == t.gen {
		return t.lastBlock.b // the same method as the call before
	}
	if hb := t.blocks[m]; hb != nil && hb.gen == t.gen {
		t.lastMethod, t.lastBlock = m, hb
		return hb.b
	}
	fields := t.fields(m)
	var size uint32
	for _, f := range fields {
		size += f.Size()
	}
	index := t.indexUsed+size <= t.indexMax
	first := t.encode(fields, !index)
	if index {
		t.indexUsed += size
		t.gen++ // the table grew: every kept block is stale
	}
	if len(t.blocks) >= maxBlocks {
		clear(t.blocks)
	}
	t.blocks[m] = &headerBlock{gen: t.gen, b: t.encode(fields, !index)}
	return first
}

func (t *transport) fields(m *Method) []hpack.HeaderField {
	f := make([]hpack.HeaderField, 0, 7+len(m.md))
	f = append(f,
		hpack.HeaderField{Name: ":method", Value: "POST"},
		hpack.HeaderField{Name: ":scheme", Value: t.scheme},
		hpack.HeaderField{Name: ":path", Value: m.path},
		hpack.HeaderField{Name: ":authority", Value: t.authority},
	)
	if m.connect {
		f = append(f,
			hpack.HeaderField{Name: "content-type", Value: "application/proto"},
			hpack.HeaderField{Name: "user-agent", Value: t.opts.UserAgent},
			hpack.HeaderField{Name: "connect-protocol-version", Value: "1"},
		)
		return append(f, m.md...)
	}
	if m.web {
		f = append(f,
			hpack.HeaderField{Name: "content-type", Value: "application/grpc-web+proto"},
			hpack.HeaderField{Name: "user-agent", Value: t.opts.UserAgent},
			hpack.HeaderField{Name: "x-grpc-web", Value: "1"},
		)
		return append(f, m.md...)
	}
	f = append(f,
		hpack.HeaderField{Name: "content-type", Value: "application/grpc"},
		hpack.HeaderField{Name: "user-agent", Value: t.opts.UserAgent},
		hpack.HeaderField{Name: "te", Value: "trailers"},
	)
	return append(f, m.md...)
}

func (t *transport) encode(fields []hpack.HeaderField, literal bool) []byte {
	t.encBuf.Reset()
	for _, f := range fields {
		f.Sensitive = literal
		t.enc.WriteField(f)
	}
	return append([]byte(nil), t.encBuf.Bytes()...)
}

// setTableSizeLocked applies the server's HEADER_TABLE_SIZE: the encoder
// shrinks its table (announced in the next block) and indexes no more.
func (t *transport) setTableSizeLocked(v uint32) {
	if v >= 4096 {
		return
	}
	t.enc.SetMaxDynamicTableSizeLimit(v)
	t.indexMax = 0
	t.gen++
}

// openLocked gives s the next stream id and appends its HEADERS (and
// CONTINUATION frames if the block is larger than a frame); END_STREAM is
// set when the call sends no message.
func (t *transport) openLocked(s *stream, dl *deadline, endStream bool) {
	s.id = t.nextID
	t.nextID += 2
	if t.nextID > 1<<31-1 {
		t.stopNewStreamsLocked()
	}
	s.sendWin = t.initSendWin
	s.deadline = *dl
	t.streams.add(s)
	if dl.own {
		t.watchDeadlineLocked(s, dl)
	}
	block := t.headerBlockLocked(s.m)
	var timeout [24]byte
	var tl []byte
	if s.connect() {
		if dl.has() {
			tl = appendConnectTimeout(timeout[:0], dl.remaining())
		}
	} else {
		tl = t.appendTimeoutLocked(timeout[:0], dl)
	}
	flags := http2.FlagHeadersEndHeaders
	if endStream {
		flags |= http2.FlagHeadersEndStream
		s.halfClosed = true
	}
	if n := len(block) + len(tl); n <= t.maxFrame {
		t.wbuf = appendFrameHeader(t.wbuf, n, http2.FrameHeaders, flags, s.id)
		t.wbuf = append(append(t.wbuf, block...), tl...)
		return
	}
	t.appendSplitHeaders(s.id, append(append([]byte(nil), block...), tl...), flags)
}

// appendSplitHeaders appends a header block larger than a frame as
// HEADERS and CONTINUATION frames.
func (t *transport) appendSplitHeaders(id uint32, block []byte, flags http2.Flags) {
	first := true
	for len(block) > 0 {
		n := min(len(block), t.maxFrame)
		typ, f := http2.FrameContinuation, http2.Flags(0)
		if first {
			typ, f = http2.FrameHeaders, flags&^http2.FlagHeadersEndHeaders
		}
		if n == len(block) {
			f |= http2.FlagHeadersEndHeaders
		}
		t.wbuf = appendFrameHeader(t.wbuf, n, typ, f, id)
		t.wbuf = append(t.wbuf, block[:n]...)
		block = block[n:]
		first = false
	}
}

// appendTimeoutLocked appends grpc-timeout for the time left before dl,
// or nothing when there is no deadline. For a Timeout, the field is the
// same call after call, and made once.
func (t *transport) appendTimeoutLocked(b []byte, dl *deadline) []byte {
	if !dl.has() {
		return b
	}
	d := dl.remaining()
	if !dl.own {
		return appendTimeoutField(b, d)
	}
	if d != t.timeoutFor || len(t.timeoutField) == 0 {
		t.timeoutField = appendTimeoutField(t.timeoutField[:0], d)
		t.timeoutFor = d
	}
	return append(b, t.timeoutField...)
}

// appendTimeoutField appends grpc-timeout d as an HPACK literal without
// indexing.
func appendTimeoutField(b []byte, d time.Duration) []byte {
	var v [16]byte
	value := appendTimeout(v[:0], d)
	b = append(b, 0x00, byte(len("grpc-timeout")))
	b = append(b, "grpc-timeout"...)
	b = append(b, byte(len(value)))
	return append(b, value...)
}

// appendTimeout writes d as the gRPC protocol does: at most 8 digits and a
// unit, rounded up.
func appendTimeout(b []byte, d time.Duration) []byte {
	if d <= 0 {
		return append(b, "1n"...)
	}
	const maxValue = 1e8 - 1
	units := [...]struct {
		d    time.Duration
		unit byte
	}{{time.Nanosecond, 'n'}, {time.Microsecond, 'u'}, {time.Millisecond, 'm'}, {time.Second, 'S'}, {time.Minute, 'M'}, {time.Hour, 'H'}}
	for _, u := range units {
		if v := (d + u.d - 1) / u.d; v <= maxValue || u.unit == 'H' {
			return append(strconv.AppendInt(b, int64(min(v, maxValue)), 10), u.unit)
		}
	}
	return b
}
