package client_test

import (
	"context"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/rpckit/rpckit/internal/gen/thrift/rpckit/bench"
	"github.com/rpckit/rpckit/internal/thriftfixture"
	"github.com/rpckit/rpckit/internal/thrifttest"
	"github.com/rpckit/rpckit/thrift/client"
	"github.com/rpckit/rpckit/thrift/wire"
)

// BenchmarkCall runs the same call loop, at the same concurrency (two
// goroutines per P, each with its own connection), through this client
// and through the Apache Go library's generated client, against the
// Apache Go server in another process: cpu-ns/call is then the client's
// alone (getrusage of this process around the loop), with calls/s and
// allocs/op beside it.
//
//	go test ./thrift/client -run '^$' -bench Call -benchtime 20000x
func BenchmarkCall(b *testing.B) {
	eachBenchCall(b, func(b *testing.B, name string, s thrifttest.Setup, addr, m string) {
		b.Run(name+"/rpckit", func(b *testing.B) { benchRPCKit(b, s, addr, m) })
		b.Run(name+"/apache", func(b *testing.B) { benchApache(b, s, addr, m) })
	})
}

// eachBenchCall calls fn for each setup the benchmarks measure, with the
// address of the Apache Go server of it in another process, and each
// method they call; name is the setup's and the method's.
func eachBenchCall(b *testing.B, fn func(b *testing.B, name string, s thrifttest.Setup, addr, method string)) {
	for _, s := range []thrifttest.Setup{
		{Transport: client.Framed}, {Transport: client.Framed, Protocol: wire.Compact},
		{Transport: client.Buffered}, {Transport: client.Header},
	} {
		addr := thrifttest.ServeApart(b, s)
		for _, m := range []string{"Echo", "PutMedium"} {
			fn(b, s.Name()+"/"+m, s, addr, m)
		}
	}
}

const benchParallelism = 2

func benchRPCKit(b *testing.B, s thrifttest.Setup, addr, method string) {
	conc := benchParallelism * runtime.GOMAXPROCS(0)
	c := newClient(b, s, addr, func(o *client.Options) { o.MaxConns = conc })
	args := benchArgs(b, s.Protocol, method)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	measure(b, func(pb *testing.PB) {
		out := make([]byte, 0, 4096)
		for pb.Next() {
			reply, err := c.Call(ctx, method, args, out[:0])
			if err != nil {
				b.Error(err)
				return
			}
			out = reply
		}
	})
}

func benchApache(b *testing.B, s thrifttest.Setup, addr, method string) {
	conc := benchParallelism * runtime.GOMAXPROCS(0)
	clients := make(chan *bench.BenchServiceClient, conc)
	for range conc {
		clients <- bench.NewBenchServiceClient(thrifttest.Client(b, s, addr))
	}
	small, medium := thriftfixture.Small(), thriftfixture.Medium()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	measure(b, func(pb *testing.PB) {
		ac := <-clients
		var err error
		for pb.Next() {
			if method == "Echo" {
				_, err = ac.Echo(ctx, small)
			} else {
				_, err = ac.PutMedium(ctx, medium)
			}
			if err != nil {
				b.Error(err)
				return
			}
		}
	})
}

func benchArgs(b *testing.B, p wire.Protocol, method string) []byte {
	var args []byte
	var err error
	if method == "Echo" {
		args, err = thriftfixture.Encode(p, &bench.BenchServiceEchoArgs{Req: thriftfixture.Small()})
	} else {
		args, err = thriftfixture.Encode(p, &bench.BenchServicePutMediumArgs{Req: thriftfixture.Medium()})
	}
	if err != nil {
		b.Fatal(err)
	}
	return args
}

// measure runs loop in parallel and reports calls/s and cpu-ns/call.
func measure(b *testing.B, loop func(*testing.PB)) {
	b.SetParallelism(benchParallelism)
	b.ReportAllocs()
	cpu0 := cpuTime()
	b.ResetTimer()
	b.RunParallel(loop)
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/call")
}

// cpuTime is this process's user and system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
