package client_test

import (
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/rpckit/rpckit/internal/gen/thrift/rpckit/bench"
	"github.com/rpckit/rpckit/internal/thriftfixture"
	"github.com/rpckit/rpckit/internal/thrifttest"
	"github.com/rpckit/rpckit/thrift/client"
)

// BenchmarkCallPair measures this client against the Apache Go generated
// client in alternating rounds of roundCalls calls each, at the same
// concurrency (two goroutines per P, a connection each), against the
// Apache Go server in another process, so that the machine's load
// changing under the run reaches both alike. It reports the medians over
// the rounds: cpu-ns/call of each (getrusage of this process: the client
// alone), cpu-x (rpckit's CPU per call over Apache's: the target is at
// most 0.5) and rate-x (rpckit's calls/s over Apache's: at least 1).
//
//	go test ./thrift/client -run '^$' -bench CallPair -benchtime 20x
func BenchmarkCallPair(b *testing.B) {
	eachBenchCall(b, func(b *testing.B, name string, s thrifttest.Setup, addr, m string) {
		b.Run(name, func(b *testing.B) { pairRounds(b, rpckitSide(b, s, addr, m), apacheSide(b, s, addr, m)) })
	})
}

const roundCalls = 2000

// A side makes call number i of a round on worker w's connection.
type side func(w int) error

func benchConc() int { return benchParallelism * runtime.GOMAXPROCS(0) }

func rpckitSide(b *testing.B, s thrifttest.Setup, addr, method string) side {
	c := newClient(b, s, addr, func(o *client.Options) { o.MaxConns = benchConc() })
	args := benchArgs(b, s.Protocol, method)
	outs := make([][]byte, benchConc())
	ctx := b.Context()
	return func(w int) error {
		reply, err := c.Call(ctx, method, args, outs[w][:0])
		outs[w] = reply
		return err
	}
}

func apacheSide(b *testing.B, s thrifttest.Setup, addr, method string) side {
	clients := make([]*bench.BenchServiceClient, benchConc())
	for i := range clients {
		clients[i] = bench.NewBenchServiceClient(thrifttest.Client(b, s, addr))
	}
	small, medium := thriftfixture.Small(), thriftfixture.Medium()
	ctx := b.Context()
	return func(w int) error {
		var err error
		if method == "Echo" {
			_, err = clients[w].Echo(ctx, small)
		} else {
			_, err = clients[w].PutMedium(ctx, medium)
		}
		return err
	}
}

func pairRounds(b *testing.B, ours, base side) {
	round(b, ours)
	round(b, base) // warm both
	var cpuOurs, cpuBase, cpuX, rateX []float64
	for i := 0; b.Loop(); i++ {
		var co, cb, wo, wb time.Duration
		if i%2 == 0 {
			co, wo = round(b, ours)
			cb, wb = round(b, base)
		} else {
			cb, wb = round(b, base)
			co, wo = round(b, ours)
		}
		cpuOurs = append(cpuOurs, float64(co.Nanoseconds())/roundCalls)
		cpuBase = append(cpuBase, float64(cb.Nanoseconds())/roundCalls)
		cpuX = append(cpuX, float64(co)/float64(cb))
		rateX = append(rateX, float64(wb)/float64(wo))
	}
	b.ReportMetric(median(cpuOurs), "cpu-ns/call")
	b.ReportMetric(median(cpuBase), "base-cpu-ns/call")
	b.ReportMetric(median(cpuX), "cpu-x")
	b.ReportMetric(median(rateX), "rate-x")
}

// round makes roundCalls calls over benchConc workers and returns the CPU
// and wall time they took.
func round(b *testing.B, call side) (cpu, wall time.Duration) {
	conc := benchConc()
	var wg sync.WaitGroup
	cpu0, t0 := cpuTime(), time.Now()
	for w := range conc {
		wg.Go(func() {
			for range roundCalls / conc {
				if err := call(w); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	return cpuTime() - cpu0, time.Since(t0)
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	xs = slices.Sorted(slices.Values(xs))
	return xs[len(xs)/2]
}
