package cli

import (
	"context"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/rpckit/rpckit/invoke"
	"github.com/rpckit/rpckit/invoke/mdvalue"
	"github.com/rpckit/rpckit/schema"
	"github.com/rpckit/rpckit/transcode"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"google.golang.org/grpc/metadata"
)

// connFlags bind the transport flags shared by every command that dials.
type connFlags struct {
	opts    invoke.DialOptions
	headers []string // -H: sent on calls and reflection
	rpcHdrs []string
}

func (f *connFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&f.opts.Plaintext, "plaintext", false, "use plaintext instead of TLS (HTTP/2 without TLS, h2c, for gRPC)")
	fs.StringVar(&f.opts.TLS.CACert, "cacert", "", "PEM `file` of root certificates to trust instead of the system's")
	fs.StringVar(&f.opts.TLS.Cert, "cert", "", "PEM `file` of the client certificate (mTLS)")
	fs.StringVar(&f.opts.TLS.Key, "key", "", "PEM `file` of the client certificate's private key (mTLS)")
	fs.BoolVar(&f.opts.TLS.Insecure, "insecure", false, "skip verification of the server's certificate")
	fs.StringVar(&f.opts.TLS.ServerName, "servername", "", "server `name` to verify the certificate against")
	fs.StringVar(&f.opts.Authority, "authority", "", "value of the :authority header")
	durationVar(fs, &f.opts.ConnectTimeout, "connect-timeout", 10*time.Second, "how long to wait for the connection")
	f.opts.MaxMsgSize = defaultMaxMsgSize
	fs.Var((*byteSize)(&f.opts.MaxMsgSize), "max-msg-size", "largest message read, sent or received, in `bytes` (or KiB, MiB, GiB)")
	fs.StringArrayVarP(&f.headers, "header", "H", nil, "request metadata `'key: value'` for the call and reflection (repeatable; ${VAR} expanded)")
	fs.StringArrayVar(&f.rpcHdrs, "rpc-header", nil, "request metadata `'key: value'` for the call only (repeatable)")
}

// dial connects to target.
func (f *connFlags) dial(ctx context.Context, target string) (*invoke.Conn, error) {
	opts := f.opts
	opts.UserAgent = "rpckit"
	return invoke.Dial(ctx, target, opts)
}

// callMetadata is the metadata sent with the RPC itself.
func (f *connFlags) callMetadata() (metadata.MD, error) {
	return parseHeaders(append(append([]string(nil), f.headers...), f.rpcHdrs...))
}

var envRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// parseHeaders reads 'key: value' pairs; ${VAR} in values is replaced by the
// environment variable, and values of -bin keys are base64-decoded when
// they are valid base64 (padded or not).
func parseHeaders(hdrs []string) (metadata.MD, error) {
	md := metadata.MD{}
	for _, h := range hdrs {
		key, value, ok := strings.Cut(h, ":")
		key = strings.ToLower(strings.TrimSpace(key))
		if !ok || key == "" {
			return nil, usagef("header %q: want 'key: value'", h)
		}
		value = envRef.ReplaceAllStringFunc(strings.TrimSpace(value), func(ref string) string {
			return os.Getenv(envRef.FindStringSubmatch(ref)[1])
		})
		md.Append(key, mdvalue.DecodeOrKeep(key, value))
	}
	return md, nil
}

// schemaFlags bind where descriptors come from.
type schemaFlags struct {
	protos      []string
	importPaths []string
	protosets   []string
	reflect     bool
	reflHdrs    []string
}

func (f *schemaFlags) register(fs *pflag.FlagSet) {
	fs.StringArrayVar(&f.protos, "proto", nil, ".proto `file` to compile for the schema (repeatable)")
	fs.StringArrayVarP(&f.importPaths, "import-path", "I", nil, "`dir` to search for .proto files and their imports (repeatable)")
	fs.StringArrayVar(&f.protosets, "protoset", nil, "FileDescriptorSet `file` for the schema (repeatable)")
	fs.BoolVar(&f.reflect, "reflect", false, "also ask the server by reflection when --proto or --protoset is given")
	fs.StringArrayVar(&f.reflHdrs, "reflect-header", nil, "metadata `'key: value'` for reflection requests only (repeatable)")
}

func (f *schemaFlags) local() bool { return len(f.protos) > 0 || len(f.protosets) > 0 }

// source builds the schema Source: the local files when given (and the
// server's reflection too with --reflect), else reflection alone. conn may
// be nil when the schema is local.
func (f *schemaFlags) source(ctx context.Context, conn *invoke.Conn, cf *connFlags) (schema.Source, func(), error) {
	var sources []schema.Source
	if len(f.protos) > 0 {
		src, err := schema.Compile(ctx, schema.CompileOptions{Files: f.protos, ImportPaths: f.importPaths})
		if err != nil {
			return nil, nil, err
		}
		sources = append(sources, src)
	}
	if len(f.protosets) > 0 {
		src, err := schema.ReadProtosets(f.protosets...)
		if err != nil {
			return nil, nil, err
		}
		sources = append(sources, src)
	}
	cleanup := func() {}
	if len(sources) == 0 || f.reflect {
		if conn == nil {
			return nil, nil, usagef("a target is needed to use server reflection (or give --proto or --protoset)")
		}
		hdr, err := parseHeaders(append(append([]string(nil), cf.headers...), f.reflHdrs...))
		if err != nil {
			return nil, nil, err
		}
		refl := schema.Reflection(conn.ClientConn(), schema.ReflectionOptions{Header: hdr})
		sources = append(sources, refl)
		cleanup = refl.Close
	}
	return schema.Merge(sources...), cleanup, nil
}

// jsonFlags bind the JSON output choices.
type jsonFlags struct {
	opts   transcode.MarshalOptions
	pretty bool
}

func (f *jsonFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&f.opts.EmitUnpopulated, "emit-defaults", false, "print fields that have their default values")
	fs.BoolVar(&f.opts.UseProtoNames, "proto-names", false, "print proto field names instead of lowerCamelCase JSON names")
	fs.BoolVar(&f.opts.UseEnumNumbers, "enums-as-ints", false, "print enum values as numbers")
	fs.BoolVar(&f.pretty, "pretty", false, "indent JSON output (default: when stdout is a terminal)")
}

// indent reports whether output is indented: --pretty if given, else when
// stdout is a terminal.
func (f *jsonFlags) indent(cmd *cobra.Command, stdio Stdio) bool {
	if cmd.Flags().Changed("pretty") {
		return f.pretty
	}
	return isTerminal(stdio.Out)
}

// splitTarget separates an optional leading target from the other
// arguments: an argument with a colon is a target.
func splitTarget(args []string) (target string, rest []string) {
	if len(args) > 0 && strings.Contains(args[0], ":") {
		return args[0], args[1:]
	}
	return "", args
}

func argsBetween(lo, hi int) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) < lo || len(args) > hi {
			return usagef("want %d to %d arguments, got %d", lo, hi, len(args))
		}
		return nil
	}
}
