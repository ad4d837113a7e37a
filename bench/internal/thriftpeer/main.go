// Command thriftpeer is the Apache Thrift Go side of bench/thrift_vs_apache.sh:
// a server of thrift/testdata/bench.thrift's BenchService, and the Apache
// generated client calling Echo in a loop, the baseline of rpckit bench's
// Thrift client CPU. Framed transport, binary protocol.
//
//	thriftpeer serve                    prints its 127.0.0.1 address, serves until interrupted
//	thriftpeer args FILE                writes Echo's arguments (the Small specimen), encoded
//	thriftpeer client ADDR C SECONDS    C goroutines, a connection each, call Echo
//	                                    back to back; prints {"calls": N, "errors": E, "rps": R}
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/rpckit/rpckit/internal/gen/thrift/rpckit/bench"
	"github.com/rpckit/rpckit/internal/thriftfixture"
	"github.com/rpckit/rpckit/thrift/wire"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "thriftpeer:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	switch {
	case len(args) == 1 && args[0] == "serve":
		return serve()
	case len(args) == 2 && args[0] == "args":
		b, err := thriftfixture.Encode(wire.Binary, &bench.BenchServiceEchoArgs{Req: thriftfixture.Small()})
		if err != nil {
			return err
		}
		return os.WriteFile(args[1], b, 0o644)
	case len(args) == 4 && args[0] == "client":
		c, err1 := strconv.Atoi(args[2])
		secs, err2 := strconv.ParseFloat(args[3], 64)
		if err1 != nil || err2 != nil {
			return fmt.Errorf("client ADDR C SECONDS: bad numbers")
		}
		return loop(args[1], c, time.Duration(secs*float64(time.Second)))
	}
	return fmt.Errorf("usage: thriftpeer serve | args FILE | client ADDR C SECONDS")
}

type handler struct{}

func (handler) Echo(_ context.Context, req *bench.Small) (*bench.Small, error) { return req, nil }
func (handler) GetMedium(_ context.Context, id int64, title string) (*bench.Medium, error) {
	return &bench.Medium{Title: title, Total: id}, nil
}
func (handler) PutMedium(_ context.Context, m *bench.Medium) (*bench.Medium, error) { return m, nil }
func (handler) Trim(context.Context, *bench.Medium) (*bench.MediumPart, error) {
	return &bench.MediumPart{}, nil
}
func (handler) Grow(context.Context, *bench.Medium, int32) (*bench.Large, error) {
	return &bench.Large{}, nil
}
func (handler) Notify(context.Context, string) error { return nil }
func (handler) Fail(_ context.Context, code int32, msg string) error {
	return &bench.BenchError{Code: code, Message: msg}
}

func serve() error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	cfg := &thrift.TConfiguration{}
	sock := thrift.NewTServerSocketFromFactoryTimeout(func(net.Addr) (net.Listener, error) { return ln, nil }, ln.Addr(), 0)
	srv := thrift.NewTSimpleServer4(bench.NewBenchServiceProcessor(handler{}), sock,
		thrift.NewTFramedTransportFactoryConf(thrift.NewTTransportFactory(), cfg), thrift.NewTBinaryProtocolFactoryConf(cfg))
	srv.SetLogContext(context.Background())
	if err := srv.Listen(); err != nil {
		return err
	}
	go srv.AcceptLoop()
	fmt.Println(ln.Addr())
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	return srv.Stop()
}

// loop runs c goroutines, each with its own framed binary connection and
// generated client, calling Echo back to back for d.
func loop(addr string, c int, d time.Duration) error {
	clients := make([]*bench.BenchServiceClient, c)
	for i := range clients {
		cfg := &thrift.TConfiguration{ConnectTimeout: 5 * time.Second, SocketTimeout: 20 * time.Second}
		trans := thrift.NewTFramedTransportConf(thrift.NewTSocketConf(addr, cfg), cfg)
		if err := trans.Open(); err != nil {
			return err
		}
		defer trans.Close()
		prot := thrift.NewTBinaryProtocolConf(trans, cfg)
		clients[i] = bench.NewBenchServiceClient(thrift.NewTStandardClient(prot, prot))
	}
	req := thriftfixture.Small()
	var calls, errs atomic.Int64
	start := time.Now()
	deadline := start.Add(d)
	var wg sync.WaitGroup
	for _, cl := range clients {
		wg.Go(func() {
			ctx := context.Background()
			for time.Now().Before(deadline) {
				if _, err := cl.Echo(ctx, req); err != nil {
					errs.Add(1)
				}
				calls.Add(1)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start).Seconds()
	return json.NewEncoder(os.Stdout).Encode(map[string]any{
		"calls": calls.Load(), "errors": errs.Load(), "rps": float64(calls.Load()-errs.Load()) / elapsed,
	})
}
