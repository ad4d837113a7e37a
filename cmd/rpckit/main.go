// Command rpckit calls, inspects, converts, load-tests and fronts gRPC
// services. See `rpckit help`.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/rpckit/rpckit/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], cli.Stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr})
	stop()
	os.Exit(code)
}
