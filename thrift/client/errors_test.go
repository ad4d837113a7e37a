package client_test

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/rpckit/rpckit/internal/gen/thrift/rpckit/bench"
	"github.com/rpckit/rpckit/internal/thriftfixture"
	"github.com/rpckit/rpckit/internal/thrifttest"
	"github.com/rpckit/rpckit/thrift/client"
	"github.com/rpckit/rpckit/thrift/wire"
)

// fakeServer accepts loopback connections and runs serve on each; it
// counts the connections it accepted.
type fakeServer struct {
	ln       net.Listener
	accepted atomic.Int32
}

func startFake(t *testing.T, serve func(net.Conn)) *fakeServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeServer{ln: ln}
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			f.accepted.Add(1)
			wg.Go(func() { defer nc.Close(); serve(nc) })
		}
	})
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	return f
}

func (f *fakeServer) addr() string { return f.ln.Addr().String() }

// readFramedCall reads one framed binary call and returns its seqid.
func readFramedCall(nc net.Conn) (int32, error) {
	var n [4]byte
	if _, err := io.ReadFull(nc, n[:]); err != nil {
		return 0, err
	}
	b := make([]byte, binary.BigEndian.Uint32(n[:]))
	if _, err := io.ReadFull(nc, b); err != nil {
		return 0, err
	}
	m, err := wire.Binary.ConsumeMessageHeader(b, 0)
	return m.SeqID, err
}

// framedReply returns a framed binary Echo reply with an empty result.
func framedReply(seq int32) []byte {
	msg := wire.Binary.AppendMessageHeader(nil, "Echo", wire.Reply, seq)
	msg = append(msg, 0)
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(msg))), msg...)
}

func echoArgs(p wire.Protocol) []byte {
	b, _ := thriftfixture.Encode(p, &bench.BenchServiceEchoArgs{Req: thriftfixture.Small()})
	return b
}

func TestServerDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c := newClient(t, thrifttest.Setup{}, addr, nil)
	_, err = c.Call(context.Background(), "Echo", echoArgs(wire.Binary), nil)
	if !errors.Is(err, syscall.ECONNREFUSED) || !strings.HasPrefix(err.Error(), "thrift/client: Echo: dial tcp ") {
		t.Fatalf("Call = %v, want connection refused naming the method and address", err)
	}
}

// TestServerClosesMidReply: half a reply, then EOF, on each transport.
func TestServerClosesMidReply(t *testing.T) {
	for _, tr := range []client.Transport{client.Framed, client.Buffered, client.Header} {
		t.Run(tr.String(), func(t *testing.T) {
			f := startFake(t, func(nc net.Conn) {
				buf := make([]byte, 4096)
				nc.Read(buf)
				reply := framedReply(1)
				if tr == client.Buffered {
					reply = reply[4:]
				}
				nc.Write(reply[:len(reply)/2])
			})
			c := newClient(t, thrifttest.Setup{Transport: tr}, f.addr(), nil)
			_, err := c.Call(context.Background(), "Echo", echoArgs(wire.Binary), nil)
			if !errors.Is(err, io.ErrUnexpectedEOF) || !strings.Contains(err.Error(), "closed by the server mid-reply") {
				t.Fatalf("Call = %v, want an unexpected EOF mid-reply", err)
			}
		})
	}
}

// TestFrameTooLarge: a frame claiming 1 GiB is refused before any big
// allocation.
func TestFrameTooLarge(t *testing.T) {
	f := startFake(t, func(nc net.Conn) {
		if _, err := readFramedCall(nc); err == nil {
			nc.Write(binary.BigEndian.AppendUint32(nil, 1<<30))
		}
	})
	c := newClient(t, thrifttest.Setup{}, f.addr(), nil)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := c.Call(context.Background(), "Echo", echoArgs(wire.Binary), nil)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, client.ErrFrameTooLarge) || !strings.Contains(err.Error(), "frame of 1073741824 bytes, limit 16777216") {
		t.Fatalf("Call = %v, want ErrFrameTooLarge naming the sizes", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("refusing the frame allocated %d bytes", grew)
	}
}

// TestMaxFrameSize: a real reply over the limit fails on every transport.
func TestMaxFrameSize(t *testing.T) {
	for _, tr := range []client.Transport{client.Framed, client.Buffered, client.Header} {
		s := thrifttest.Setup{Transport: tr}
		t.Run(tr.String(), func(t *testing.T) {
			c := newClient(t, s, thrifttest.Serve(t, s, thrifttest.NewHandler()), func(o *client.Options) { o.MaxFrameSize = 256 })
			args, _ := thriftfixture.Encode(wire.Binary, &bench.BenchServicePutMediumArgs{Req: thriftfixture.Medium()})
			if _, err := c.Call(context.Background(), "PutMedium", args, nil); !errors.Is(err, client.ErrFrameTooLarge) {
				t.Fatalf("Call = %v, want ErrFrameTooLarge", err)
			}
			if _, err := c.Call(context.Background(), "Echo", echoArgs(wire.Binary), nil); err != nil {
				t.Errorf("a small call after it: %v", err)
			}
		})
	}
}

// TestWrongProtocol: client and server disagreeing fail clearly and in
// bounded time, whether the server hangs up or waits for more bytes.
func TestWrongProtocol(t *testing.T) {
	for _, k := range []struct {
		name           string
		server, client thrifttest.Setup
		want           error
	}{
		{"compact client, binary server", thrifttest.Setup{}, thrifttest.Setup{Protocol: wire.Compact}, nil},
		{"binary client, compact server", thrifttest.Setup{Transport: client.Buffered, Protocol: wire.Compact}, thrifttest.Setup{Transport: client.Buffered}, nil},
		{"framed client, buffered server", thrifttest.Setup{Transport: client.Buffered}, thrifttest.Setup{}, nil},
		{"server waiting for more", thrifttest.Setup{}, thrifttest.Setup{}, context.DeadlineExceeded},
	} {
		t.Run(k.name, func(t *testing.T) {
			var addr string
			if k.want != nil {
				addr = startFake(t, func(nc net.Conn) { io.Copy(io.Discard, nc) }).addr()
			} else {
				addr = thrifttest.Serve(t, k.server, thrifttest.NewHandler())
			}
			c := newClient(t, k.client, addr, nil)
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			defer cancel()
			_, err := c.Call(ctx, "Echo", echoArgs(k.client.Protocol), nil)
			switch {
			case err == nil:
				t.Fatal("Call succeeded")
			case k.want != nil && !errors.Is(err, k.want):
				t.Fatalf("Call = %v, want %v", err, k.want)
			case k.want == nil && !strings.Contains(err.Error(), "same transport and protocol"):
				t.Fatalf("Call = %v, want a hint at the protocol", err)
			}
		})
	}
}

// TestSequenceMismatch: a reply with another call's seqid is an error and
// its connection is not reused.
func TestSequenceMismatch(t *testing.T) {
	f := startFake(t, func(nc net.Conn) {
		for {
			seq, err := readFramedCall(nc)
			if err != nil {
				return
			}
			nc.Write(framedReply(seq + 1))
		}
	})
	c := newClient(t, thrifttest.Setup{}, f.addr(), nil)
	for range 2 {
		_, err := c.Call(context.Background(), "Echo", echoArgs(wire.Binary), nil)
		if err == nil || !strings.Contains(err.Error(), "sequence id 2 is not the call's 1") && !strings.Contains(err.Error(), "sequence id 3 is not the call's 2") {
			t.Fatalf("Call = %v, want a sequence id mismatch", err)
		}
	}
	if n := f.accepted.Load(); n != 2 {
		t.Errorf("server accepted %d connections, want 2 (the bad one dropped)", n)
	}
}

// TestTimeoutDropsConn: a call past its deadline fails with
// DeadlineExceeded, and the next call gets a new connection, not the late
// reply.
func TestTimeoutDropsConn(t *testing.T) {
	s := thrifttest.Setup{}
	h := thrifttest.NewHandler()
	addr := thrifttest.Serve(t, s, h)
	t.Cleanup(func() { close(h.Block) })
	c := newClient(t, s, addr, nil)
	block, _ := thriftfixture.Encode(wire.Binary, &bench.BenchServiceGetMediumArgs{ID: 1, Title: "block"})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := c.Call(ctx, "GetMedium", block, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Call = %v, want DeadlineExceeded", err)
	}
	reply, err := c.Call(context.Background(), "Echo", echoArgs(wire.Binary), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got bench.BenchServiceEchoResult
	if err := thriftfixture.Decode(wire.Binary, reply, &got); err != nil || got.Success.GetID() != thriftfixture.Small().ID {
		t.Errorf("Echo after the timeout = %v, %v", got.Success, err)
	}
}

// TestCancelDropsConn: cancelling a call's context (no deadline) ends it.
func TestCancelDropsConn(t *testing.T) {
	s := thrifttest.Setup{Transport: client.Buffered}
	h := thrifttest.NewHandler()
	addr := thrifttest.Serve(t, s, h)
	t.Cleanup(func() { close(h.Block) })
	c := newClient(t, s, addr, nil)
	block, _ := thriftfixture.Encode(wire.Binary, &bench.BenchServiceGetMediumArgs{ID: 1, Title: "block"})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	if _, err := c.Call(ctx, "GetMedium", block, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("Call = %v, want Canceled", err)
	}
	if _, err := c.Call(context.Background(), "Echo", echoArgs(wire.Binary), nil); err != nil {
		t.Fatal(err)
	}
}

// TestCallTimeout: Options.Timeout bounds a call whose context has none.
func TestCallTimeout(t *testing.T) {
	f := startFake(t, func(nc net.Conn) { io.Copy(io.Discard, nc) })
	c := newClient(t, thrifttest.Setup{}, f.addr(), func(o *client.Options) { o.Timeout = 100 * time.Millisecond })
	_, err := c.Call(context.Background(), "Echo", echoArgs(wire.Binary), nil)
	if !errors.Is(err, os.ErrDeadlineExceeded) || !strings.Contains(err.Error(), "call timed out after 100ms") {
		t.Fatalf("Call = %v, want a timeout after 100ms", err)
	}
}

// TestCancelWatched: a context that several calls share is watched by the
// connection; cancelling it still ends the call in flight.
func TestCancelWatched(t *testing.T) {
	s := thrifttest.Setup{Transport: client.Header, Protocol: wire.Compact}
	h := thrifttest.NewHandler()
	addr := thrifttest.Serve(t, s, h)
	t.Cleanup(func() { close(h.Block) })
	c := newClient(t, s, addr, nil)
	ctx, cancel := context.WithCancel(context.Background())
	for range 3 {
		if _, err := c.Call(ctx, "Echo", echoArgs(s.Protocol), nil); err != nil {
			t.Fatal(err)
		}
	}
	block, _ := thriftfixture.Encode(s.Protocol, &bench.BenchServiceGetMediumArgs{ID: 1, Title: "block"})
	time.AfterFunc(50*time.Millisecond, cancel)
	if _, err := c.Call(ctx, "GetMedium", block, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("Call = %v, want Canceled", err)
	}
	if _, err := c.Call(context.Background(), "Echo", echoArgs(s.Protocol), nil); err != nil {
		t.Fatal(err)
	}
}
