package lean

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// A transport is one HTTP/2 connection. Its mutex guards the stream table,
// the send windows, the settings the peer gave, the HPACK encoder and the
// write buffer; the reader goroutine takes it for each frame it applies.
type transport struct {
	conn      net.Conn
	opts      *Options
	scheme    string
	authority string
	owner     *Conn

	mu      sync.Mutex
	streams streamTable
	nextID  uint32
	active  int // streams counted against the peer's MAX_CONCURRENT_STREAMS
	waiters []chan bool
	err     error // set once the connection failed or closed
	goaway  bool

	// Peer settings and send windows.
	maxStreams  int
	maxFrame    int
	initSendWin int64
	sendWin     int64
	winWaiters  []*stream

	// Receive flow control: bytes consumed but not yet given back.
	connUnacked int

	// Streams whose deadline is their own (CallOptions.Timeout), a
	// min-heap by deadline, and the timer armed for the first (at
	// dlArmed, zero when not armed).
	deadlines []dlEntry
	dlTimer   *time.Timer
	dlArmed   int64 // on monoNanos' clock
	// The ctx Done channels watched (watch.go), and the last one a call
	// brought.
	watches  []*ctxWatch
	lastDone <-chan struct{}

	// The grpc-timeout field last made for a Timeout, and for which.
	timeoutField []byte
	timeoutFor   time.Duration

	// Request headers: the HPACK encoder and the blocks it made.
	enc    *hpack.Encoder
	encBuf bytes.Buffer
	blocks map[*Method]*headerBlock
	// The block of the method last called, found without the map.
	lastMethod *Method
	lastBlock  *headerBlock
	gen        int // bumped whenever the encoder's dynamic table changes
	indexUsed  uint32
	indexMax   uint32

	// Frames waiting for the writer goroutine.
	wbuf    []byte
	fw      *http2.Framer // writes control frames into wbuf
	kicked  bool
	flushCh chan struct{}
	closed  chan struct{}

	draining atomic.Bool // no new streams: GOAWAY, failure or ids used up

	// Reader-goroutine state.
	br       *bufio.Reader
	midBlock bool // the Framer read a header block that goes on
	// plain reads every frame with the Framer and decodes every header
	// block, taking nothing from the read buffer or blocksSeen (a test
	// compares).
	plain      bool
	fr         *http2.Framer
	dec        *hpack.Decoder
	hdr        headerState
	blocksSeen blockCache
	capture    bool                // onField appends to captured
	captured   []hpack.HeaderField // the fields of the block being decoded
	pingAck    atomic.Int64        // unix nanos of the last PING ack
}

// headerBlock is a request header block ready to copy, valid while the
// encoder's table generation is gen.
type headerBlock struct {
	gen int
	b   []byte
}

// wbufWriter lets the Framer append control frames to the write buffer;
// it is used with t.mu held.
type wbufWriter struct{ t *transport }

func (w wbufWriter) Write(p []byte) (int, error) {
	w.t.wbuf = append(w.t.wbuf, p...)
	return len(p), nil
}

const readBufferSize = 64 << 10

func newTransport(conn net.Conn, c *Conn) *transport {
	t := &transport{
		conn: conn, opts: &c.opts, scheme: c.scheme, authority: c.authority, owner: c,
		nextID:      1,
		maxStreams:  math.MaxInt32,
		maxFrame:    16384,
		initSendWin: 65535,
		sendWin:     65535,
		blocks:      make(map[*Method]*headerBlock),
		indexMax:    4096 - 256,
		flushCh:     make(chan struct{}, 1),
		closed:      make(chan struct{}),
	}
	t.enc = hpack.NewEncoder(&t.encBuf)
	t.fw = http2.NewFramer(wbufWriter{t}, nil)
	t.br = bufio.NewReaderSize(conn, readBufferSize)
	t.fr = http2.NewFramer(io.Discard, t.br)
	t.fr.SetReuseFrames()
	t.dec = hpack.NewDecoder(4096, t.onField)
	t.dec.SetMaxStringLength(maxHeaderListSize)
	return t
}

// handshake sends the client preface and settings, and applies the
// server's first SETTINGS frame, before ctx's deadline.
func (t *transport) handshake(ctx context.Context) error {
	if d, ok := ctx.Deadline(); ok {
		t.conn.SetDeadline(d)
		defer t.conn.SetDeadline(time.Time{})
	}
	if err := t.writePreface(); err != nil {
		return err
	}
	return t.readServerSettings()
}

// writePreface sends the client preface: the magic string, our SETTINGS
// and the connection window's increase.
func (t *transport) writePreface() error {
	t.wbuf = append(t.wbuf, http2.ClientPreface...)
	t.fw.WriteSettings(t.initialSettings()...)
	if inc := t.opts.ConnWindowSize - minWindow; inc > 0 {
		t.fw.WriteWindowUpdate(0, uint32(inc))
	}
	_, err := t.conn.Write(t.wbuf)
	t.wbuf = t.wbuf[:0]
	return err
}

// initialSettings are the SETTINGS of the preface: no push, and the
// stream window when it is not the default.
func (t *transport) initialSettings() []http2.Setting {
	settings := []http2.Setting{{ID: http2.SettingEnablePush, Val: 0}}
	if t.opts.WindowSize != minWindow {
		settings = append(settings, http2.Setting{ID: http2.SettingInitialWindowSize, Val: uint32(t.opts.WindowSize)})
	}
	return settings
}

// readServerSettings reads the server's first frame, which must be its
// SETTINGS, and applies them.
func (t *transport) readServerSettings() error {
	f, err := t.fr.ReadFrame()
	if err != nil {
		return err
	}
	sf, ok := f.(*http2.SettingsFrame)
	if !ok || sf.IsAck() {
		return errors.New("the server did not start with a SETTINGS frame; is it an HTTP/2 (gRPC) server?")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.onSettings(sf)
}

// start runs the reader and writer goroutines, and the keepalive pinger
// when asked for.
func (t *transport) start() {
	go t.readLoop()
	go t.writeLoop()
	if t.opts.Keepalive > 0 {
		go t.keepalive()
	}
}

// fail closes the connection; calls in flight end with err's status.
func (t *transport) fail(err error) {
	t.mu.Lock()
	t.failLocked(err, connError(err))
	t.mu.Unlock()
}

func (t *transport) failLocked(err error, status *Error) {
	if t.err != nil {
		return
	}
	t.err = err
	t.draining.Store(true)
	for _, s := range t.streams.all() {
		t.finishLocked(s, status, false)
	}
	t.wakeWaitersLocked()
	if t.dlTimer != nil {
		t.dlTimer.Stop()
	}
	close(t.closed)
	t.conn.Close()
	go t.owner.forget(t)
}

// closeIfIdleLocked closes a draining connection once its last stream
// ends.
func (t *transport) closeIfIdleLocked() {
	if t.goaway && t.streams.len() == 0 && t.err == nil {
		t.failLocked(errors.New("connection drained after GOAWAY"), connError(errors.New("GOAWAY")))
	}
}

// stopNewStreamsLocked marks the transport as taking no new streams.
func (t *transport) stopNewStreamsLocked() {
	t.goaway = true
	t.draining.Store(true)
	t.wakeWaitersLocked()
}
