package lean

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"net"
	"sync"
	"testing"

	testv1 "github.com/rpckit/rpckit/internal/gen/rpckit/test/v1"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
	"google.golang.org/grpc"
)

// A unary call allocates next to nothing: measured against a server that
// itself does not allocate once it runs (rawServer), so the process's
// allocation count is the client's.
func TestUnaryAllocations(t *testing.T) {
	c := dial(t, startRawServer(t), Options{})
	m := method(t, "Echo", false)
	reqs := []Message{NewMessage([]byte{8, 1})}
	ctx := context.Background()
	call := func() {
		if err := c.Call(ctx, m, reqs, nil); err != nil {
			t.Fatal(err)
		}
	}
	for range 100 {
		call() // warm the pools and the header tables
	}
	// The response's frames are taken from the read buffer, not made by the
	// Framer: nothing should allocate.
	n := testing.AllocsPerRun(2000, call)
	t.Logf("%.2f allocations per call", n)
	if n > 0.1 {
		t.Fatalf("%.2f allocations per unary call, want none", n)
	}
}

// BenchmarkUnary measures a unary call, one at a time and 48 in flight,
// on the lean engine and on grpc-go (ClientConn.Invoke with a raw codec),
// against rawServer; -cpuprofile shows the client alone.
func BenchmarkUnary(b *testing.B) {
	addr := startRawServer(b)
	c := dial(b, addr, Options{})
	m := method(b, "Echo", false)
	reqs := []Message{NewMessage([]byte{8, 1})}
	b.Run("lean", func(b *testing.B) {
		b.SetParallelism(48)
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if err := c.Call(context.Background(), m, reqs, nil); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
	b.Run("grpc-go", func(b *testing.B) {
		cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecureCreds()))
		if err != nil {
			b.Fatal(err)
		}
		defer cc.Close()
		b.SetParallelism(48)
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			req, resp := &testv1.EchoRequest{Number: 1}, &testv1.EchoResponse{}
			for pb.Next() {
				if err := cc.Invoke(context.Background(), "/rpckit.test.v1.Test/Echo", req, resp); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
}

// startRawServer answers every request with one fixed message and OK. It
// reads frames into a reused buffer, decodes no request headers, and
// writes prepared response blocks that after the first response refer to
// its HPACK table: it does not allocate per call.
func startRawServer(t testing.TB) string {
	ln := listenTCP(t)
	var wg sync.WaitGroup
	t.Cleanup(wg.Wait)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() { serveRaw(c) })
		}
	}()
	return ln.Addr().String()
}

func serveRaw(c net.Conn) {
	defer c.Close()
	preface := make([]byte, len(http2.ClientPreface))
	if _, err := io.ReadFull(c, preface); err != nil {
		return
	}
	var out bytes.Buffer
	fw := http2.NewFramer(&out, nil)
	fw.WriteSettings()
	fw.WriteWindowUpdate(0, 1<<30)
	var hb bytes.Buffer
	enc := hpack.NewEncoder(&hb)
	block := func(kv ...string) []byte {
		hb.Reset()
		for i := 0; i < len(kv); i += 2 {
			enc.WriteField(hpack.HeaderField{Name: kv[i], Value: kv[i+1]})
		}
		return bytes.Clone(hb.Bytes())
	}
	// First responses add the fields to the table; later ones refer to them.
	blocks := [2][2][]byte{{block(":status", "200", "content-type", "application/grpc"), block("grpc-status", "0")}}
	blocks[1] = [2][]byte{block(":status", "200", "content-type", "application/grpc"), block("grpc-status", "0")}
	respMsg := []byte{0, 0, 0, 0, 2, 16, 1}
	var hdr [9]byte
	buf := make([]byte, 1<<16)
	consumed, answered := 0, 0
	for {
		if out.Len() > 0 {
			if _, err := c.Write(out.Bytes()); err != nil {
				return
			}
			out.Reset()
		}
		if _, err := io.ReadFull(c, hdr[:]); err != nil {
			return
		}
		n := int(hdr[0])<<16 | int(hdr[1])<<8 | int(hdr[2])
		typ, flags, id := http2.FrameType(hdr[3]), http2.Flags(hdr[4]), binary.BigEndian.Uint32(hdr[5:])&(1<<31-1)
		if n > len(buf) {
			return
		}
		if _, err := io.ReadFull(c, buf[:n]); err != nil {
			return
		}
		switch typ {
		case http2.FrameSettings:
			if !flags.Has(http2.FlagSettingsAck) {
				fw.WriteSettingsAck()
			}
		case http2.FramePing:
			if !flags.Has(http2.FlagPingAck) {
				fw.WritePing(true, [8]byte(buf[:8]))
			}
		case http2.FrameData, http2.FrameHeaders:
			if typ == http2.FrameData {
				consumed += n
			}
			if consumed > 1<<15 {
				fw.WriteWindowUpdate(0, uint32(consumed))
				consumed = 0
			}
			if !flags.Has(http2.FlagDataEndStream) { // the same bit for HEADERS
				continue
			}
			b := blocks[min(answered, 1)]
			answered++
			fw.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: b[0], EndHeaders: true})
			fw.WriteData(id, false, respMsg)
			fw.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: b[1], EndHeaders: true, EndStream: true})
		}
	}
}
