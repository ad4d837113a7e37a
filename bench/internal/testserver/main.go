// Command testserver serves the fixture service (rpckit.test.v1.Test) with
// health and reflection on 127.0.0.1 for the benchmark scripts, prints its
// address, and runs until interrupted. With -http it also serves HTTP on
// another loopback port, answering 200 "ok" to any request, and prints its
// http:// URL on a second line. With -connect it serves the service on
// connect-go instead (Connect, gRPC and gRPC-Web over HTTP/1.1 and h2c, no
// reflection).
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
	connect := flag.Bool("connect", false, "serve on connect-go")
	flag.Parse()
	addr, stop, err := start(*connect)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testserver:", err)
		os.Exit(1)
	}
	fmt.Println(addr)
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
	stop()
}

// waitSignal returns on SIGINT or SIGTERM.
func waitSignal() {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
}

func start(connect bool) (string, func(), error) {
	if connect {
		srv, err := rpctest.StartConnect()
		if err != nil {
			return "", nil, err
		}
		return srv.Addr, srv.Stop, nil
	}
	srv, err := rpctest.Start(rpctest.Options{})
	if err != nil {
		return "", nil, err
	}
	return srv.Addr, srv.Stop, nil
}
