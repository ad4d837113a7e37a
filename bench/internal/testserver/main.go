// Command testserver serves the fixture service (rpckit.test.v1.Test) with
// health and reflection on 127.0.0.1 for the benchmark scripts, prints its
// address, and runs until interrupted. With -http it also serves HTTP on
// another loopback port, answering 200 "ok" to any request, and prints its
// http:// URL on a second line.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/rpckit/rpckit/internal/rpctest"
)

func main() {
	withHTTP := flag.Bool("http", false, "also serve HTTP, answering 200 ok")
	flag.Parse()
	srv, err := rpctest.Start(rpctest.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "testserver:", err)
		os.Exit(1)
	}
	fmt.Println(srv.Addr)
	if *withHTTP {
		lis, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			fmt.Fprintln(os.Stderr, "testserver:", err)
			os.Exit(1)
		}
		ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok\n")) })
		hs := &http.Server{Handler: ok, ReadHeaderTimeout: 5 * time.Second}
		go hs.Serve(lis)
		defer hs.Close()
		fmt.Println("http://" + lis.Addr().String())
	}
	waitSignal()
	srv.Stop()
}

// waitSignal returns on SIGINT or SIGTERM.
func waitSignal() {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
}
