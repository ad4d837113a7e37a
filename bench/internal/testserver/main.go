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
	exitOn(err)
	fmt.Println(addr)
	if *withHTTP {
		defer serveHTTP().Close()
	}
	waitSignal()
	stop()
}

// exitOn ends the program when err is not nil.
func exitOn(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "testserver:", err)
		os.Exit(1)
	}
}

// serveHTTP serves 200 "ok" on a loopback port and prints its URL.
func serveHTTP() *http.Server {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	exitOn(err)
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok\n")) })
	hs := &http.Server{Handler: ok, ReadHeaderTimeout: 5 * time.Second}
	go hs.Serve(lis)
	fmt.Println("http://" + lis.Addr().String())
	return hs
}

// waitSignal returns on SIGINT or SIGTERM.
func waitSignal() {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
}

// start starts the fixture service, on connect-go when connect is set,
// and returns its address and how to stop it.
func start(connect bool) (string, func(), error) {
	if connect {
		return startConnect()
	}
	srv, err := rpctest.Start(rpctest.Options{})
	if err != nil {
		return "", nil, err
	}
	return srv.Addr, srv.Stop, nil
}

// startConnect starts the fixture service on connect-go.
func startConnect() (string, func(), error) {
	srv, err := rpctest.StartConnect()
	if err != nil {
		return "", nil, err
	}
	return srv.Addr, srv.Stop, nil
}
