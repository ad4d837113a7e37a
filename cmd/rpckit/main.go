// Command rpckit calls, inspects, converts, load-tests and fronts gRPC
// services. See `rpckit help`.
package main

import (
	"context"
	"os"

	"github.com/rpckit/rpckit/internal/cli"
)

func main() {
	ctx, stop := cli.NotifyContext(context.Background())
	code := cli.Main(ctx, os.Args[1:], cli.Stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr})
	stop()
	os.Exit(code)
}
