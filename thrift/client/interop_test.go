package client_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/rpckit/rpckit/internal/gen/thrift/rpckit/bench"
	"github.com/rpckit/rpckit/internal/thriftfixture"
	"github.com/rpckit/rpckit/internal/thrifttest"
	"github.com/rpckit/rpckit/thrift/client"
	"github.com/rpckit/rpckit/thrift/wire"
)

// call is one call of BenchService: its arguments, a fresh result and
// the result field expected set (0 success, else the exception's id).
type call struct {
	method string
	args   thrift.TStruct
	result func() thrift.TStruct
	field  int16
}

func calls() []call {
	return []call{
		{"Echo", &bench.BenchServiceEchoArgs{Req: thriftfixture.Small()},
			func() thrift.TStruct { return bench.NewBenchServiceEchoResult() }, 0},
		{"GetMedium", &bench.BenchServiceGetMediumArgs{ID: 7, Title: "seven"},
			func() thrift.TStruct { return bench.NewBenchServiceGetMediumResult() }, 0},
		{"GetMedium", &bench.BenchServiceGetMediumArgs{ID: -3, Title: "no such page"},
			func() thrift.TStruct { return bench.NewBenchServiceGetMediumResult() }, 1},
		{"PutMedium", &bench.BenchServicePutMediumArgs{Req: thriftfixture.Medium()},
			func() thrift.TStruct { return bench.NewBenchServicePutMediumResult() }, 0},
		{"Trim", &bench.BenchServiceTrimArgs{Req: thriftfixture.Medium()},
			func() thrift.TStruct { return bench.NewBenchServiceTrimResult() }, 0},
		{"Grow", &bench.BenchServiceGrowArgs{Seed: thriftfixture.Medium(), Pages: 3},
			func() thrift.TStruct { return bench.NewBenchServiceGrowResult() }, 0},
		{"Fail", &bench.BenchServiceFailArgs{Code: 42, Message: "refused"},
			func() thrift.TStruct { return bench.NewBenchServiceFailResult() }, 1},
	}
}

func setups() []thrifttest.Setup {
	var out []thrifttest.Setup
	for _, tr := range []client.Transport{client.Framed, client.Buffered, client.Header} {
		for _, p := range []wire.Protocol{wire.Binary, wire.Compact} {
			out = append(out, thrifttest.Setup{Transport: tr, Protocol: p}, thrifttest.Setup{Transport: tr, Protocol: p, Multiplexed: "Bench"})
		}
	}
	return append(out,
		thrifttest.Setup{Transport: client.Framed, Protocol: wire.Binary, NonStrict: true},
		thrifttest.Setup{Transport: client.Buffered, Protocol: wire.Binary, NonStrict: true, Multiplexed: "Bench"})
}

// TestInterop calls every method on the Apache Go server over every
// transport x protocol and checks each result is the Apache Go client's.
func TestInterop(t *testing.T) {
	for _, s := range setups() {
		t.Run(s.Name(), func(t *testing.T) {
			h := thrifttest.NewHandler()
			addr := thrifttest.Serve(t, s, h)
			c := newClient(t, s, addr, nil)
			ac := thrifttest.Client(t, s, addr)
			for _, k := range calls() {
				checkCall(t, s.Protocol, c, ac, k)
			}
			checkOneway(t, s.Protocol, c, h)
		})
	}
}

func checkCall(t *testing.T, p wire.Protocol, c *client.Client, ac thrift.TClient, k call) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	args, err := thriftfixture.Encode(p, k.args)
	if err != nil {
		t.Fatal(err)
	}
	reply, err := c.Call(ctx, k.method, args, nil)
	if err != nil {
		t.Fatalf("%s: %v", k.method, err)
	}
	f, ok, err := client.ResultField(p, reply)
	if err != nil || !ok || f.ID != k.field {
		t.Errorf("%s: ResultField = %d, %v, %v; want field %d", k.method, f.ID, ok, err, k.field)
	}
	got := k.result()
	if err := thriftfixture.Decode(p, reply, got); err != nil {
		t.Fatalf("%s: decode reply: %v", k.method, err)
	}
	want := k.result()
	if _, err := ac.Call(ctx, k.method, k.args, want); err != nil {
		t.Fatalf("%s: apache client: %v", k.method, err)
	}
	if a, b := canonical(t, p, got), canonical(t, p, want); !bytes.Equal(a, b) {
		t.Errorf("%s: result differs from the Apache client's:\n got %x\nwant %x", k.method, a, b)
	}
}

func canonical(t *testing.T, p wire.Protocol, s thrift.TStruct) []byte {
	t.Helper()
	b, err := thriftfixture.Encode(p, s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkOneway sends Notify and waits for the handler to see it, then
// checks the connection still serves calls.
func checkOneway(t *testing.T, p wire.Protocol, c *client.Client, h *thrifttest.Handler) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for i := range 3 {
		event := fmt.Sprintf("event-%d", i)
		args, _ := thriftfixture.Encode(p, &bench.BenchServiceNotifyArgs{Event: event})
		if err := c.Oneway(ctx, "Notify", args); err != nil {
			t.Fatalf("Notify: %v", err)
		}
		select {
		case got := <-h.Events:
			if got != event {
				t.Errorf("Notify delivered %q, want %q", got, event)
			}
		case <-ctx.Done():
			t.Fatal("Notify never reached the server")
		}
	}
	args, _ := thriftfixture.Encode(p, &bench.BenchServiceEchoArgs{Req: thriftfixture.Small()})
	if _, err := c.Call(ctx, "Echo", args, nil); err != nil {
		t.Errorf("Echo after Notify: %v", err)
	}
}

// TestUnknownMethod: the server's UNKNOWN_METHOD exception is an
// *ApplicationError, and the connection stays usable.
func TestUnknownMethod(t *testing.T) {
	for _, s := range []thrifttest.Setup{{Transport: client.Framed}, {Transport: client.Buffered, Protocol: wire.Compact}, {Transport: client.Header}} {
		t.Run(s.Name(), func(t *testing.T) {
			c := newClient(t, s, thrifttest.Serve(t, s, thrifttest.NewHandler()), nil)
			_, err := c.Call(context.Background(), "Nope", []byte{0}, nil)
			var ae *client.ApplicationError
			if !errors.As(err, &ae) || ae.Type != client.UnknownMethod {
				t.Fatalf("Call(Nope) = %v, want an UNKNOWN_METHOD application exception", err)
			}
			if want := "thrift/client: Nope: application exception UNKNOWN_METHOD: Unknown function Nope"; err.Error() != want {
				t.Errorf("error = %q, want %q", err, want)
			}
			args, _ := thriftfixture.Encode(s.Protocol, &bench.BenchServiceEchoArgs{Req: thriftfixture.Small()})
			if _, err := c.Call(context.Background(), "Echo", args, nil); err != nil {
				t.Errorf("Echo after the exception: %v", err)
			}
		})
	}
}

// TestRequestIDHeader: info headers ride the THeader transport to the
// server's handler, the static ones and the context's.
func TestRequestIDHeader(t *testing.T) {
	for _, p := range []wire.Protocol{wire.Binary, wire.Compact} {
		s := thrifttest.Setup{Transport: client.Header, Protocol: p}
		t.Run(s.Name(), func(t *testing.T) {
			h := thrifttest.NewHandler()
			c := newClient(t, s, thrifttest.Serve(t, s, h), func(o *client.Options) {
				o.Headers = map[string]string{"client": "rpckit"}
			})
			args, _ := thriftfixture.Encode(p, &bench.BenchServiceEchoArgs{Req: thriftfixture.Small()})
			for _, id := range []string{"req-1", "req-2"} {
				ctx := client.WithHeader(context.Background(), "request-id", id)
				if _, err := c.Call(ctx, "Echo", args, nil); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := c.Call(context.Background(), "Echo", args, nil); err != nil {
				t.Fatal(err)
			}
			if got := h.Headers(); fmt.Sprint(got) != "[req-1 req-2]" {
				t.Errorf("server saw request ids %v, want [req-1 req-2]", got)
			}
		})
	}
}
