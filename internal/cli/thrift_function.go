package cli

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/rpckit/rpckit/internal/errtext"
	"github.com/rpckit/rpckit/thrift/client"
	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/idl"
	tinvoke "github.com/rpckit/rpckit/thrift/invoke"
	"github.com/rpckit/rpckit/thrift/wire"
	"github.com/spf13/pflag"
)

// thriftCallFlags bind how call and bench reach a Thrift service: the IDL
// (--idl, with schemaFlags' -I), the transport, the protocol and the
// multiplexed service name. The TLS and timeout flags are connFlags'; the
// protocol is the command's one --protocol flag (protocolFlags), which the
// command copies in.
type thriftCallFlags struct {
	idl         idlFlags
	transport   string
	protocol    string // "" for binary
	multiplexed string
	nonStrict   bool
}

func (f *thriftCallFlags) register(fs *pflag.FlagSet) {
	f.idl.register(fs)
	fs.StringVar(&f.transport, "transport", "framed", "with --idl, the Thrift `transport`: framed, buffered or header")
	fs.StringVar(&f.multiplexed, "multiplexed", "", "with --idl, the service `name` a multiplexed server routes by (sent as NAME:method)")
	fs.BoolVar(&f.nonStrict, "non-strict", false, "with --idl, write binary message headers in the old form without a version")
}

// thriftOnlyFlags are the flags that mean something with --idl only.
var thriftOnlyFlags = []string{"transport", "multiplexed", "non-strict"}

// webOnlyFlags are the flags of --protocol grpc-web and connect, which
// mean nothing with --idl.
var webOnlyFlags = []string{"codec", "http1", "http2-prior-knowledge", "no-http-get"}

// checkThriftOnly refuses the Thrift flags without --idl.
func checkThriftOnly(fs *pflag.FlagSet) error {
	for _, name := range thriftOnlyFlags {
		if fs.Changed(name) {
			return usagef("--%s goes with --idl", name)
		}
	}
	return nil
}

// clientOptions are the thrift/client options of the flags, for addr.
func (f *thriftCallFlags) clientOptions(addr string, cf *connFlags) (client.Options, error) {
	o := client.Options{Addr: addr, Multiplexed: f.multiplexed, NonStrict: f.nonStrict,
		DialTimeout: cf.opts.ConnectTimeout, MaxFrameSize: cf.opts.MaxMsgSize}
	var ok bool
	if o.Transport, ok = client.TransportNamed(f.transport); !ok || f.transport == "" {
		return o, usagef("--transport %q: want framed, buffered or header", f.transport)
	}
	if o.Protocol, ok = wire.ProtocolNamed(f.protocol); !ok {
		return o, usagef("with --idl, --protocol %q: want binary or compact", f.protocol)
	}
	var err error
	if tlsWanted(cf) {
		if o.TLS, err = cf.opts.TLS.Config(); err != nil {
			return o, err
		}
	}
	if o.Headers, err = thriftHeaders(cf); err != nil {
		return o, err
	}
	return o, nil
}

// tlsWanted: Thrift servers are plaintext unless a TLS flag says not.
func tlsWanted(cf *connFlags) bool {
	t := cf.opts.TLS
	return t.CACert != "" || t.Cert != "" || t.Insecure || t.ServerName != ""
}

// thriftHeaders are -H and --rpc-header as THeader info headers.
func thriftHeaders(cf *connFlags) (map[string]string, error) {
	md, err := cf.callMetadata()
	if err != nil || len(md) == 0 {
		return nil, err
	}
	h := map[string]string{}
	for k, v := range md {
		h[k] = strings.Join(v, ",")
	}
	return h, nil
}

// thriftTimeout is a client Timeout for a command's --timeout: zero is
// none (negative, for thrift/client).
func thriftTimeout(d time.Duration) time.Duration {
	if d <= 0 {
		return -1
	}
	return d
}

// findFunction resolves Service.method (or Service/method, the service
// qualified by its file or not) in the IDL; an unknown name's error names
// the closest known ones.
func findFunction(f *idl.File, name string) (*idl.Function, error) {
	name = strings.TrimPrefix(name, "/")
	cut := strings.LastIndexAny(name, "./")
	if cut < 0 {
		return nil, fmt.Errorf("method %q: want Service.method", name)
	}
	syms := newIDLSymbols(f)
	if sym, err := syms.find(name[:cut]); err == nil {
		if svc, ok := sym.decl.(*idl.Service); ok {
			if fn := svc.Function(name[cut+1:]); fn != nil {
				return fn, nil
			}
		}
	}
	var known []string
	for _, sym := range syms.list {
		if svc, ok := sym.decl.(*idl.Service); ok {
			for s := svc; s != nil; s = s.Extends {
				for _, fn := range s.Functions {
					known = append(known, sym.name+"."+fn.Name, svc.Name+"."+fn.Name)
				}
			}
		}
	}
	return nil, fmt.Errorf("no method %q in the IDL%s", name, errtext.DidYouMean(errtext.Closest(name, known, 3)))
}

// thriftArgs reads the encoded arguments struct of fn from file, at most
// limit bytes, and checks it is one in protocol p; no file is an empty
// struct.
func thriftArgs(fn *idl.Function, p wire.Protocol, file string, limit int) ([]byte, error) {
	if file == "" {
		return []byte{0}, nil
	}
	r, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	in, err := readLimited(r, limit, func([]byte) error { return nil })
	if err != nil {
		return nil, fmt.Errorf("--body-file: %w", err)
	}
	var cache dynamic.Cache
	t := cache.Type(tinvoke.StructType(fn.Args))
	if err := dynamic.Validate(t, p, in); err != nil {
		other := wire.Compact
		if p == wire.Compact {
			other = wire.Binary
		}
		if len(in) > 0 && dynamic.Validate(t, other, in) == nil {
			return nil, fmt.Errorf("--body-file holds the arguments of %s in the %s protocol, not %s; give --protocol %s", fn.Name, other, p, other)
		}
		return nil, fmt.Errorf("--body-file is not the arguments of %s in the %s protocol: %w", fn.Name, p, err)
	}
	return in, nil
}
