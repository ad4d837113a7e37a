// Package main imports what a user of the module can and cannot.
package main

import (
	_ "github.com/rpckit/rpckit/examples/demo/internal/store" // its own: fine
	_ "github.com/rpckit/rpckit/internal/errtext"             // the module's: not
	_ "github.com/rpckit/rpckit/wire"                         // public: fine
)

func main() {}
