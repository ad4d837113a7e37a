package cli

import (
	"github.com/rpckit/rpckit/load"
	"github.com/rpckit/rpckit/thrift/loadtarget"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// thriftBenchFlags bind what a Thrift load test calls and how.
type thriftBenchFlags struct {
	thriftCallFlags
	bodyFile string
}

func (f *thriftBenchFlags) register(fs *pflag.FlagSet) {
	f.thriftCallFlags.register(fs)
	fs.StringVar(&f.bodyFile, "body-file", "", "with --idl, a `file` holding the method's arguments struct encoded in --protocol (default: no arguments)")
}

// openLoopConns is the Thrift pool's size in open loop without -c.
const openLoopConns = 64

// grpcOnlyBenchFlags are bench's gRPC flags that mean nothing for Thrift.
var grpcOnlyBenchFlags = append([]string{"data-template", "data-file", "engine", "streams-per-connection", "stream-interval", "authority",
	"reflect-header", "target-addr", "service-config", "breaker"}, webOnlyFlags...)

// check refuses the flags that do not go with --idl, and the Thrift
// flags without it.
func (f *thriftBenchFlags) check(fs *pflag.FlagSet, gf *grpcBenchFlags, target string) error {
	if f.idl.file == "" {
		if fs.Changed("body-file") {
			return usagef("--body-file goes with --idl")
		}
		return checkThriftOnly(fs)
	}
	if err := f.idl.check(&gf.schema, ""); err != nil {
		return err
	}
	f.protocol = gf.protocol.name
	for _, name := range grpcOnlyBenchFlags {
		if fs.Changed(name) {
			return usagef("--%s does not go with --idl", name)
		}
	}
	if fs.Changed("data") && fs.Changed("body-file") {
		return usagef("-d and --body-file both give the arguments; give one")
	}
	if isURL(target) {
		return usagef("--idl wants a HOST:PORT target, not the URL %q", target)
	}
	return gf.check(fs)
}

// target builds the Thrift load target (thrift/loadtarget) and sets what
// opts needs for it.
func (f *thriftBenchFlags) target(cmd *cobra.Command, stdio Stdio, target, method string, gf *grpcBenchFlags, bf *benchFlags, opts *load.Options) (load.Target, func(), error) {
	file, err := loadIDL(f.idl.file, gf.schema.importPaths)
	if err != nil {
		return nil, nil, err
	}
	fn, err := findFunction(file, method)
	if err != nil {
		return nil, nil, err
	}
	co, err := f.clientOptions(target, &gf.conn)
	if err != nil {
		return nil, nil, err
	}
	co.MaxConns = f.poolSize(cmd.Flags(), gf, bf)
	co.Timeout = thriftTimeout(opts.Timeout)
	var args []byte
	if gf.data != "" {
		args, err = thriftJSONArgs(fn, co.Protocol, gf.data, stdio.In, gf.conn.opts.MaxMsgSize)
	} else {
		args, err = thriftArgs(fn, co.Protocol, f.bodyFile, gf.conn.opts.MaxMsgSize)
	}
	if err != nil {
		return nil, nil, err
	}
	lt, err := loadtarget.New(cmd.Context(), loadtarget.Options{Client: co, Function: fn, Args: args})
	if err != nil {
		return nil, nil, err
	}
	lt.Apply(opts)
	return lt.Call, lt.Close, nil
}

// poolSize is --connections when given, else one connection per call in
// flight: -c (the closed loop's workers, or open loop's cap), or
// openLoopConns in open loop without -c.
func (f *thriftBenchFlags) poolSize(fs *pflag.FlagSet, gf *grpcBenchFlags, bf *benchFlags) int {
	switch {
	case fs.Changed("connections"):
		return gf.connections
	case bf.opts.Concurrency > 0:
		return bf.opts.Concurrency
	case bf.rate != "":
		return openLoopConns
	}
	return 1
}
