package client_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/rpckit/rpckit/internal/gen/thrift/rpckit/bench"
	"github.com/rpckit/rpckit/internal/thriftfixture"
	"github.com/rpckit/rpckit/internal/thrifttest"
	"github.com/rpckit/rpckit/thrift/client"
	"github.com/rpckit/rpckit/thrift/wire"
)

// TestInteropPython calls BenchService served by the Apache Thrift Python
// library (internal/thrifttest's bench_server.py, over the Python code
// the Apache compiler generates from bench.thrift at test time), every
// method and
// both exception kinds, and checks each result is the Apache Go client's
// against the same server. `make test` installs PyPI's thrift and the
// compiler.
func TestInteropPython(t *testing.T) {
	gen := thrifttest.PythonGen(t)
	for _, s := range []thrifttest.Setup{
		{Transport: client.Framed}, {Transport: client.Buffered}, {Transport: client.Framed, Protocol: wire.Compact},
		{Transport: client.Buffered, Protocol: wire.Compact}, {Transport: client.Header}, {Transport: client.Header, Protocol: wire.Compact},
	} {
		t.Run(s.Name(), func(t *testing.T) {
			addr, events := thrifttest.ServePython(t, gen, s)
			c := newClient(t, s, addr, nil)
			ac := thrifttest.Client(t, s, addr)
			for _, k := range calls() {
				checkCall(t, s.Protocol, c, ac, k)
			}
			checkPythonOneway(t, s.Protocol, c, events)
			checkUnknownMethod(t, c)
		})
	}
}

func checkPythonOneway(t *testing.T, p wire.Protocol, c *client.Client, events <-chan string) {
	t.Helper()
	args, _ := thriftfixture.Encode(p, &bench.BenchServiceNotifyArgs{Event: "hello"})
	if err := c.Oneway(context.Background(), "Notify", args); err != nil {
		t.Fatal(err)
	}
	select {
	case e := <-events:
		if e != "hello" {
			t.Errorf("Notify delivered %q, want hello", e)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Notify never reached the python server")
	}
}

func checkUnknownMethod(t *testing.T, c *client.Client) {
	t.Helper()
	_, err := c.Call(context.Background(), "Nope", []byte{0}, nil)
	if ae, ok := errors.AsType[*client.ApplicationError](err); !ok || ae.Type != client.UnknownMethod {
		t.Errorf("Call(Nope) = %v, want an UNKNOWN_METHOD application exception", err)
	}
}
