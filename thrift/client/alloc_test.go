package client_test

import (
	"context"
	"testing"
	"time"

	"github.com/rpckit/rpckit/internal/thrifttest"
	"github.com/rpckit/rpckit/thrift/client"
	"github.com/rpckit/rpckit/thrift/wire"
)

// TestCallAllocs: a call on a warm connection allocates nothing, on every
// transport x protocol, with a background context, a run-long cancellable
// one (watched by the connection) and one with a deadline.
func TestCallAllocs(t *testing.T) {
	for _, s := range []thrifttest.Setup{
		{Transport: client.Framed}, {Transport: client.Framed, Protocol: wire.Compact},
		{Transport: client.Buffered}, {Transport: client.Buffered, Protocol: wire.Compact, Multiplexed: ""},
		{Transport: client.Header}, {Transport: client.Header, Protocol: wire.Compact},
	} {
		t.Run(s.Name(), func(t *testing.T) {
			c := newClient(t, s, thrifttest.ServeApart(t, s), nil)
			args := echoArgs(s.Protocol)
			run, cancel := context.WithCancel(context.Background())
			defer cancel()
			timed, cancel2 := context.WithTimeout(context.Background(), time.Minute)
			defer cancel2()
			for name, ctx := range map[string]context.Context{"background": context.Background(), "cancel": run, "deadline": timed} {
				out := make([]byte, 0, 1024)
				call := func() {
					if _, err := c.Call(ctx, "Echo", args, out[:0]); err != nil {
						t.Fatal(err)
					}
				}
				for range 3 {
					call()
				}
				if n := testing.AllocsPerRun(200, call); n != 0 {
					t.Errorf("%s context: %v allocs per call, want 0", name, n)
				}
			}
		})
	}
}
