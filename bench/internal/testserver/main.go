// Command testserver serves the fixture service (rpckit.test.v1.Test) with
// health and reflection on 127.0.0.1 for the benchmark scripts, prints its
// address, and runs until interrupted.
package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/rpckit/rpckit/internal/rpctest"
)

func main() {
	srv, err := rpctest.Start(rpctest.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "testserver:", err)
		os.Exit(1)
	}
	fmt.Println(srv.Addr)
	waitSignal()
	srv.Stop()
}

// waitSignal returns on SIGINT or SIGTERM.
func waitSignal() {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
}
