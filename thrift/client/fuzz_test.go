package client

import (
	"encoding/binary"
	"net"
	"testing"
	"time"

	"github.com/rpckit/rpckit/thrift/wire"
)

// FuzzReply feeds any bytes to a call as the server's reply, on each
// transport and protocol: the call ends with a reply or an error, never a
// panic, and a reply it returns is the message's body, no longer than
// what came.
func FuzzReply(f *testing.F) {
	for _, p := range []wire.Protocol{wire.Binary, wire.Compact} {
		msg := p.AppendMessageHeader(nil, "Echo", wire.Reply, 1)
		msg = append(p.AppendI32(p.AppendFieldHeader(msg, wire.I32, 0, 0), 7), 0)
		exc := p.AppendMessageHeader(nil, "Echo", wire.Exception, 1)
		exc = p.AppendString(p.AppendFieldHeader(exc, wire.String, 1, 0), "boom")
		exc = append(p.AppendI32(p.AppendFieldHeader(exc, wire.I32, 2, 1), 1), 0)
		framed := binary.BigEndian.AppendUint32(nil, uint32(len(msg)))
		header := append(binary.BigEndian.AppendUint32(nil, uint32(len(msg)+14)), 0x0f, 0xff, 0, 0, 0, 0, 0, 1, 0, 1)
		header = append(append(header, byte(protocolID(p)), 0, 0, 0), msg...)
		f.Add(uint8(Buffered), uint8(p), msg)
		f.Add(uint8(Buffered), uint8(p), exc)
		f.Add(uint8(Framed), uint8(p), append(framed, msg...))
		f.Add(uint8(Header), uint8(p), header)
		f.Add(uint8(Framed), uint8(p), []byte{0x7f, 0xff, 0xff, 0xff})
	}
	f.Fuzz(func(t *testing.T, tr, p uint8, reply []byte) {
		opts := Options{Addr: "fuzz", Transport: Transport(tr % 3), Protocol: wire.Protocol(p % 2), MaxFrameSize: 1 << 16}.withDefaults()
		c := &Client{opts: opts}
		a, b := net.Pipe()
		defer a.Close()
		go func() { b.Write(reply); b.Close() }()
		a.SetDeadline(time.Now().Add(5 * time.Second))
		cn := &conn{nc: a, rbuf: make([]byte, 64), closed: make(chan struct{})}
		out, keep, err := c.receive(cn, "Echo", 1, nil)
		if err == nil && (!keep || len(out) > len(reply)) {
			t.Fatalf("reply of %d bytes from %d, keep %v", len(out), len(reply), keep)
		}
	})
}
