package lean

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// FuzzReadResponse feeds arbitrary bytes, as the server's frames after its
// SETTINGS, to a connection with a unary call on stream 1 and a streaming
// call on stream 3: the reader never panics or hangs, both calls end, and
// they end the same way when every frame goes through the Framer and every
// header block through the HPACK decoder as when frames whole in the read
// buffer are taken from it and header blocks seen before are remembered.
func FuzzReadResponse(f *testing.F) {
	for _, seed := range responseSeeds() {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got := fuzzCalls(t, data, false)
		if want := fuzzCalls(t, data, true); got != want {
			t.Fatalf("taken from the buffer and remembered: %q\nread and decoded in full:            %q", got, want)
		}
	})
}

// fuzzCalls makes the two calls of FuzzReadResponse against data and
// says how each ended: its error and the sizes of the messages it got.
func fuzzCalls(t *testing.T, data []byte, plain bool) [2]string {
	c, err := newConn("127.0.0.1:1", Options{Plaintext: true, MaxRecvMsgSize: 1 << 16})
	if err != nil {
		t.Fatal(err)
	}
	fc := newFuzzConn(data)
	tr := newTransport(fc, c)
	tr.plain = plain
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := tr.handshake(ctx); err != nil {
		t.Fatal(err)
	}
	c.all[tr] = struct{}{}
	tr.start()
	var wg sync.WaitGroup
	var out [2]string
	for i, m := range []*Method{{path: "/a.B/Unary"}, {path: "/a.B/Stream", serverStreams: true}} {
		wg.Go(func() {
			var sizes []int
			opts := &CallOptions{OnMessage: func(b []byte) { sizes = append(sizes, len(append([]byte(nil), b...))) }}
			dl := callDeadline(ctx, opts)
			err := tr.call(ctx, m, []Message{NewMessage([]byte{8, 1})}, opts, &dl)
			out[i] = fmt.Sprint(err, sizes)
		})
		waitStreams(tr, i+1)
	}
	close(fc.gate)
	wg.Wait()
	if ctx.Err() != nil {
		t.Fatal("a call did not end when the connection did")
	}
	c.Close()
	return out
}

func waitStreams(tr *transport, n int) {
	for {
		tr.mu.Lock()
		k := int(tr.nextID / 2)
		tr.mu.Unlock()
		if k >= n {
			return
		}
		time.Sleep(50 * time.Microsecond)
	}
}

// fuzzConn is the client's side of a connection whose server sends
// SETTINGS, then, once the gate opens, data (in small reads when its
// length is odd), then EOF. Writes vanish.
type fuzzConn struct {
	pre, rest *bytes.Reader
	chunk     int // the most a read returns, when not 0
	gate      chan struct{}
	closed    chan struct{}
	once      sync.Once
}

func newFuzzConn(data []byte) *fuzzConn {
	var b bytes.Buffer
	http2.NewFramer(&b, nil).WriteSettings(http2.Setting{ID: http2.SettingMaxFrameSize, Val: 16384})
	c := &fuzzConn{pre: bytes.NewReader(b.Bytes()), rest: bytes.NewReader(data),
		gate: make(chan struct{}), closed: make(chan struct{})}
	if len(data)%2 == 1 {
		c.chunk = 1 + len(data)%29 // frames cut across reads
	}
	return c
}

func (c *fuzzConn) Read(p []byte) (int, error) {
	if c.pre.Len() > 0 {
		return c.pre.Read(p)
	}
	select {
	case <-c.gate:
	case <-c.closed:
		return 0, net.ErrClosed
	}
	if c.rest.Len() == 0 {
		return 0, io.EOF
	}
	if c.chunk > 0 && len(p) > c.chunk {
		p = p[:c.chunk]
	}
	return c.rest.Read(p)
}

func (c *fuzzConn) Write(p []byte) (int, error) {
	select {
	case <-c.closed:
		return 0, net.ErrClosed
	default:
		return len(p), nil
	}
}

func (c *fuzzConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

func (c *fuzzConn) LocalAddr() net.Addr                { return &net.TCPAddr{} }
func (c *fuzzConn) RemoteAddr() net.Addr               { return &net.TCPAddr{} }
func (c *fuzzConn) SetDeadline(t time.Time) error      { return nil }
func (c *fuzzConn) SetReadDeadline(t time.Time) error  { return nil }
func (c *fuzzConn) SetWriteDeadline(t time.Time) error { return nil }

// responseSeeds are server frame sequences: proper answers, and the odd
// shapes the reader must take.
func responseSeeds() [][]byte {
	var seeds [][]byte
	seed := func(write func(fr *http2.Framer, hdr func(...string) []byte)) {
		var b, hb bytes.Buffer
		enc := hpack.NewEncoder(&hb)
		hdr := func(kv ...string) []byte {
			hb.Reset()
			for i := 0; i < len(kv); i += 2 {
				enc.WriteField(hpack.HeaderField{Name: kv[i], Value: kv[i+1]})
			}
			return bytes.Clone(hb.Bytes())
		}
		write(http2.NewFramer(&b, nil), hdr)
		seeds = append(seeds, b.Bytes())
	}
	ok := []string{":status", "200", "content-type", "application/grpc"}
	msg := func(n int) []byte {
		b := make([]byte, 5+n)
		binary.BigEndian.PutUint32(b[1:], uint32(n))
		return b
	}
	seed(func(fr *http2.Framer, hdr func(...string) []byte) {
		for _, id := range []uint32{1, 3} {
			fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: hdr(ok...), EndHeaders: true})
			fr.WriteData(id, false, msg(3))
			fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: hdr("grpc-status", "0"), EndHeaders: true, EndStream: true})
		}
	})
	seed(func(fr *http2.Framer, hdr func(...string) []byte) {
		block := hdr(append(ok, "grpc-status", "13", "grpc-message", "bad%20thing", "grpc-status-details-bin", "CAUSA2Jvb20")...)
		fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: block[:4], EndStream: true})
		fr.WriteContinuation(1, true, block[4:])
		fr.WriteRSTStream(3, http2.ErrCodeRefusedStream)
	})
	seed(func(fr *http2.Framer, hdr func(...string) []byte) {
		fr.WriteSettings(http2.Setting{ID: http2.SettingInitialWindowSize, Val: 1}, http2.Setting{ID: http2.SettingHeaderTableSize, Val: 0})
		fr.WritePing(false, [8]byte{1})
		fr.WriteWindowUpdate(0, 100)
		fr.WriteWindowUpdate(3, 100)
		fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 3, BlockFragment: hdr(ok...), EndHeaders: true})
		big := msg(20000)
		fr.WriteData(3, false, big[:9000])
		fr.WriteData(3, false, big[9000:])
		fr.WriteDataPadded(3, false, msg(0), []byte{0, 0})
		fr.WriteGoAway(1, http2.ErrCodeNo, []byte("bye"))
	})
	seed(func(fr *http2.Framer, hdr func(...string) []byte) {
		fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: hdr(":status", "503"), EndHeaders: true, EndStream: true})
		fr.WriteData(3, true, []byte{1, 0, 0, 0, 0})
		fr.WritePushPromise(http2.PushPromiseParam{StreamID: 3, PromiseID: 2, BlockFragment: hdr(":path", "/"), EndHeaders: true})
	})
	seed(func(fr *http2.Framer, hdr func(...string) []byte) {
		// A block of indexed fields seen again, for streams that are gone
		// and for stream 1; then the table is emptied (size updates to 0
		// and back), and the same bytes mean nothing on stream 3.
		fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 5, BlockFragment: hdr(ok...), EndHeaders: true})
		indexed := hdr(ok...)
		for _, id := range []uint32{7, 1} {
			fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: indexed, EndHeaders: true})
		}
		fr.WriteData(1, false, msg(2))
		fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 9, BlockFragment: []byte{0x20, 0x3f, 0xe1, 0x1f}, EndHeaders: true})
		fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 3, BlockFragment: indexed, EndHeaders: true})
	})
	seeds = append(seeds, []byte("HTTP/1.1 400 Bad Request\r\n\r\n"), nil)
	return seeds
}

// FuzzDeframe checks the deframer against a plain reading of the gRPC
// message framing, with the input cut into frames at any size.
func FuzzDeframe(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 2, 8, 1, 0, 0, 0, 0, 0}, uint8(1))
	f.Add([]byte{0, 0, 0, 0, 3, 8, 1}, uint8(2))
	f.Add([]byte{1, 0, 0, 0, 1, 8}, uint8(7))
	f.Add([]byte{0, 0, 0, 1, 0}, uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, cut uint8) {
		const maxSize = 200
		want, wantErr := referenceDeframe(data, maxSize)
		var got [][]byte
		s := &stream{opts: &CallOptions{OnMessage: func(b []byte) { got = append(got, bytes.Clone(b)) }}}
		var err *Error
		for p := data; len(p) > 0 && err == nil; {
			n := min(len(p), int(cut%16)+1)
			err = s.deframe(p[:n], maxSize)
			p = p[n:]
		}
		if (err != nil) != wantErr || len(got) != len(want) || s.msgs != len(want) {
			t.Fatalf("got %d messages, error %v; want %d, error %v", len(got), err, len(want), wantErr)
		}
		for i := range want {
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("message %d: %x, want %x", i, got[i], want[i])
			}
		}
	})
}

func referenceDeframe(data []byte, maxSize int) ([][]byte, bool) {
	var msgs [][]byte
	for len(data) >= 5 {
		n := binary.BigEndian.Uint32(data[1:5])
		if data[0]&1 != 0 || n > uint32(maxSize) {
			return msgs, true
		}
		if uint32(len(data)-5) < n {
			break
		}
		msgs = append(msgs, data[5:5+n])
		data = data[5+n:]
	}
	return msgs, false
}
