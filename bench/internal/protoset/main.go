// Command protoset writes the fixture service's FileDescriptorSet to the
// path given, for the benchmark scripts.
package main

import (
	"fmt"
	"os"

	"github.com/rpckit/rpckit/internal/rpctest"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: protoset FILE")
		os.Exit(2)
	}
	if err := rpctest.WriteProtoset(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "protoset:", err)
		os.Exit(1)
	}
}
