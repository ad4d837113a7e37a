package cli

import (
	"github.com/rpckit/rpckit/invoke"
	"github.com/spf13/pflag"
)

// protocolFlags bind the protocol of the calls (gRPC, gRPC-Web, Connect)
// and the HTTP client choices of the last two. Reflection stays gRPC.
type protocolFlags struct {
	name  string
	http  invoke.HTTPOptions
	codec lateCodec
}

// protocolHelp explains the protocol flags in a command's long help.
const protocolHelp = `--protocol grpc-web or connect makes the calls over net/http with connect-go:
plaintext is HTTP/1.1 unless --http2-prior-knowledge (h2c), TLS negotiates
HTTP/2 unless --http1. Bidi streaming needs HTTP/2. Connect calls methods
whose idempotency_level is NO_SIDE_EFFECTS with GET (--no-http-get to POST).
Server reflection is always gRPC: against a server that speaks only Connect or
gRPC-Web, give the schema with --proto or --protoset.`

func (f *protocolFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.name, "protocol", "", "`protocol` of the calls: grpc (default), grpc-web or connect (reflection stays gRPC); with --idl, Thrift's: binary (default) or compact")
	fs.StringVar(&f.http.Codec, "codec", "proto", "message encoding of --protocol connect: `proto` or json")
	fs.BoolVar(&f.http.HTTP1, "http1", false, "keep --protocol grpc-web or connect to HTTP/1.1, over TLS too")
	fs.BoolVar(&f.http.HTTP2PriorKnowledge, "http2-prior-knowledge", false, "speak plaintext HTTP/2 (h2c) for --protocol grpc-web or connect, without an upgrade")
	fs.BoolVar(&f.http.NoGET, "no-http-get", false, "POST every Connect call, even of methods without side effects")
}

// apply sets the dial options' protocol; the connection needs it before
// the schema, which the json codec waits for (see lateCodec).
func (f *protocolFlags) apply(fs *pflag.FlagSet, opts *invoke.DialOptions) error {
	name := f.name
	switch name {
	case "":
		name = "grpc"
	case "binary", "compact":
		return usagef("--protocol %s is a Thrift protocol: it goes with --idl", name)
	}
	p, err := invoke.ParseProtocol(name)
	if err != nil {
		return usagef("--protocol %q: want grpc, grpc-web or connect (with --idl: binary or compact)", f.name)
	}
	if p == invoke.ProtocolGRPC {
		for _, name := range []string{"codec", "http1", "http2-prior-knowledge", "no-http-get"} {
			if fs.Changed(name) {
				return usagef("--%s is for --protocol grpc-web or connect", name)
			}
		}
	}
	if p != invoke.ProtocolGRPC {
		for _, name := range []string{"service-config", "target-addr", "breaker"} {
			if fs.Changed(name) {
				return usagef("--%s is for --protocol grpc: grpc-go's client applies it", name)
			}
		}
	}
	if f.http.Codec != "proto" && f.http.Codec != "json" {
		return usagef("--codec %q: want proto or json", f.http.Codec)
	}
	if f.http.Codec == "json" && p != invoke.ProtocolConnect {
		return usagef("--codec json needs --protocol connect")
	}
	if f.http.HTTP1 && f.http.HTTP2PriorKnowledge {
		return usagef("--http1 and --http2-prior-knowledge exclude each other")
	}
	opts.Protocol = p
	opts.HTTP = f.http
	opts.HTTP.JSON = &f.codec
	return nil
}

// lateCodec is the json codec's JSONCodec, set once the schema is known:
// the connection is made first, as reflection needs it.
type lateCodec struct{ invoke.JSONCodec }
