package lean

import (
	"bytes"
	"encoding/binary"
	"io"
	"net"
	"testing"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// A fake HTTP/2 server, frame by frame, for what a real gRPC server does
// not do on demand: trailers-only answers of every kind, resets, GOAWAY at
// a chosen stream, pings, odd settings; and to see exactly what the client
// writes.

type fakeConn struct {
	t   testing.TB
	c   net.Conn
	fr  *http2.Framer
	enc *hpack.Encoder
	buf bytes.Buffer
	n   int // connection number, from 1
}

// startFake serves each connection with handle, after sending settings.
func startFake(t testing.TB, settings []http2.Setting, handle func(*fakeConn)) string {
	ln := listenTCP(t)
	go func() {
		for n := 1; ; n++ {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go serveFake(t, c, n, settings, handle)
		}
	}()
	return ln.Addr().String()
}

func serveFake(t testing.TB, c net.Conn, n int, settings []http2.Setting, handle func(*fakeConn)) {
	defer c.Close()
	preface := make([]byte, len(http2.ClientPreface))
	if _, err := io.ReadFull(c, preface); err != nil || string(preface) != http2.ClientPreface {
		t.Errorf("fake server: bad preface %q (%v)", preface, err)
		return
	}
	fc := &fakeConn{t: t, c: c, fr: http2.NewFramer(c, c), n: n}
	table := uint32(4096)
	for _, s := range settings {
		if s.ID == http2.SettingHeaderTableSize {
			table = s.Val
		}
	}
	fc.fr.ReadMetaHeaders = hpack.NewDecoder(table, nil)
	fc.enc = hpack.NewEncoder(&fc.buf)
	fc.fr.WriteSettings(settings...)
	handle(fc)
}

// next returns the next frame worth a test's attention: client SETTINGS
// are acknowledged, and settings acks and WINDOW_UPDATEs skipped, unless
// all is set.
func (fc *fakeConn) next(all bool) (http2.Frame, error) {
	for {
		f, err := fc.fr.ReadFrame()
		if err != nil {
			return nil, err
		}
		switch f := f.(type) {
		case *http2.SettingsFrame:
			if !f.IsAck() {
				fc.fr.WriteSettingsAck()
			}
			if !all {
				continue
			}
		case *http2.WindowUpdateFrame:
			if !all {
				continue
			}
		}
		return f, nil
	}
}

// request reads up to the next request's headers and its messages, until
// the client half-closes.
func (fc *fakeConn) request() (*http2.MetaHeadersFrame, [][]byte, error) {
	var hf *http2.MetaHeadersFrame
	var msgs [][]byte
	var body []byte
	for {
		f, err := fc.next(false)
		if err != nil {
			return hf, msgs, err
		}
		switch f := f.(type) {
		case *http2.MetaHeadersFrame:
			hf = f
			if f.StreamEnded() {
				return hf, msgs, nil
			}
		case *http2.DataFrame:
			body = append(body, f.Data()...)
			for len(body) >= 5 && len(body) >= 5+int(binary.BigEndian.Uint32(body[1:5])) {
				n := 5 + int(binary.BigEndian.Uint32(body[1:5]))
				msgs = append(msgs, body[5:n])
				body = body[n:]
			}
			if f.StreamEnded() {
				return hf, msgs, nil
			}
		}
	}
}

// headers writes a header block of name, value pairs.
func (fc *fakeConn) headers(id uint32, end bool, kv ...string) {
	fc.buf.Reset()
	for i := 0; i < len(kv); i += 2 {
		fc.enc.WriteField(hpack.HeaderField{Name: kv[i], Value: kv[i+1]})
	}
	if err := fc.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: fc.buf.Bytes(), EndStream: end, EndHeaders: true}); err != nil {
		fc.t.Errorf("fake server: %v", err)
	}
}

// reply answers a stream with the messages and an OK status.
func (fc *fakeConn) reply(id uint32, msgs ...[]byte) {
	fc.headers(id, false, ":status", "200", "content-type", "application/grpc")
	for _, m := range msgs {
		fc.data(id, m)
	}
	fc.headers(id, true, "grpc-status", "0")
}

func (fc *fakeConn) data(id uint32, m []byte) {
	b := make([]byte, 5+len(m))
	binary.BigEndian.PutUint32(b[1:], uint32(len(m)))
	copy(b[5:], m)
	fc.fr.WriteData(id, false, b)
}

func field(hf *http2.MetaHeadersFrame, name string) string {
	for _, f := range hf.Fields {
		if f.Name == name {
			return f.Value
		}
	}
	return ""
}
