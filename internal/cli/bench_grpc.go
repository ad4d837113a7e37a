package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/rpckit/rpckit/invoke"
	"github.com/rpckit/rpckit/invoke/loadtarget"
	"github.com/rpckit/rpckit/load"
	"github.com/rpckit/rpckit/schema"
	"github.com/rpckit/rpckit/transcode"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// grpcBenchFlags bind what a gRPC load test calls and how.
type grpcBenchFlags struct {
	conn         connFlags
	policy       policyFlags
	protocol     protocolFlags
	schema       schemaFlags
	data         string
	connections  int
	dataTemplate bool
	dataFile     string
	dataOrder    string
	perConn      int
	interval     time.Duration
	engine       string
}

func (f *grpcBenchFlags) register(fs *pflag.FlagSet) {
	f.conn.register(fs)
	f.policy.register(fs)
	f.protocol.register(fs)
	f.schema.register(fs)
	fs.StringVarP(&f.data, "data", "d", "", "request JSON (a sequence of objects for client and bidi streams), `@file` or @-; for a URL, the HTTP body")
	fs.IntVar(&f.connections, "connections", 1, "gRPC connections, used in turn; with --idl, the Thrift pool's connections, one call in flight on each (default: one per call in flight)")
	fs.IntVar(&f.perConn, "streams-per-connection", 0, "calls in flight per connection: opens concurrency/N connections (overrides --connections)")
	durationVar(fs, &f.interval, "stream-interval", 0, "pause between the request messages of a client or bidi stream")
	fs.BoolVar(&f.dataTemplate, "data-template", false, "render -d as a Go template for each call: {{.RequestNumber}}, {{.WorkerID}}, {{.Data.field}}, {{randomInt 1 100}}, {{uuid}}, {{json .Data.name}}")
	fs.StringVar(&f.dataFile, "data-file", "", "requests from a `file` of JSON lines, or CSV (.csv: a header row of field names), a row a call; with --data-template, each row is .Data")
	fs.StringVar(&f.dataOrder, "data-order", orderSequential, "how calls take the rows of --data-file: sequential, random, or per-caller (each closed-loop caller its own)")
	f.registerEngine(fs)
}

// benchRequests are the prepared requests of a gRPC load test: encoded
// once, or a template rendered for each call.
type benchRequests struct {
	method protoreflect.MethodDescriptor
	reqs   [][]byte
	tmpl   *requestTemplate
	data   *dataSet   // the rows of --data-file
	rows   [][][]byte // without a template: each row's request, encoded
}

// The gRPC engines of bench, as --engine names them.
const (
	engineLean    = string(loadtarget.Lean)
	engineGRPC    = string(loadtarget.GRPC)
	engineConnect = string(loadtarget.Connect)
)

func (f *grpcBenchFlags) registerEngine(fs *pflag.FlagSet) {
	fs.StringVar(&f.engine, "engine", engineLean, "client: lean (rpckit's own HTTP/2 client, low CPU per call; also gRPC-Web, and Connect's unary calls), grpc (grpc-go, for fidelity) or connect (connect-go, the default for --protocol grpc-web or connect)")
}

// checkEngine refuses an unknown engine, or one that cannot speak the
// protocol; --protocol grpc-web or connect defaults to connect.
func (f *grpcBenchFlags) checkEngine(fs *pflag.FlagSet) error {
	if _, err := loadtarget.ParseEngine(f.engine); err != nil || f.engine == "" {
		return usagef("--engine %q: want lean, grpc or connect", f.engine)
	}
	p := f.conn.opts.Protocol
	if p != invoke.ProtocolGRPC && !fs.Changed("engine") {
		f.engine = engineConnect
	}
	ok := map[string]bool{
		engineConnect: p != invoke.ProtocolGRPC,
		engineGRPC:    p == invoke.ProtocolGRPC,
		engineLean:    true,
	}[f.engine]
	if !ok {
		return usagef("--engine %s cannot speak --protocol %s; connect speaks grpc-web and connect, grpc grpc, lean all three", f.engine, p)
	}
	h := f.conn.opts.HTTP
	if f.engine == engineLean && p != invoke.ProtocolGRPC && (h.HTTP1 || f.conn.opts.Plaintext && !h.HTTP2PriorKnowledge) {
		return usagef("--engine lean speaks %s over HTTP/2 only: give --http2-prior-knowledge in plaintext, and no --http1", p)
	}
	return nil
}

// target builds the gRPC load target (invoke/loadtarget) and sets what
// opts needs for it.
// The returned inputs, when not nil, counts the distinct data rows used.
func (f *grpcBenchFlags) target(cmd *cobra.Command, stdio Stdio, target, method string, bf *benchFlags, opts *load.Options) (_ load.Target, _ func(), inputs func() int64, _ error) {
	ctx := cmd.Context()
	if err := f.protocol.apply(cmd.Flags(), &f.conn.opts); err != nil {
		return nil, nil, nil, err
	}
	if err := f.checkEngine(cmd.Flags()); err != nil {
		return nil, nil, nil, err
	}
	if (f.policy.serviceConfig != "" || f.policy.breaker != "") && f.engine != engineGRPC {
		return nil, nil, nil, usagef("--service-config and --breaker need --engine grpc")
	}
	md, err := f.conn.callMetadata()
	if err != nil {
		return nil, nil, nil, err
	}
	if err := f.policy.apply(&f.conn, target, nil); err != nil {
		return nil, nil, nil, err
	}
	s, err := open(ctx, target, &f.conn, &f.schema)
	if err != nil {
		return nil, nil, nil, err
	}
	var r benchRequests
	if err := r.prepare(ctx, s, method, f, bf, stdio); err != nil {
		s.close()
		return nil, nil, nil, err
	}
	// The requests are encoded (or their template parsed): the load test
	// needs no more of the schema, and an open reflection stream would
	// hold up the server's drain.
	s.endSchema()
	if r.method.IsStreamingServer() || r.method.IsStreamingClient() {
		bf.extraTitle = "Stream messages (time since the previous one)"
	}
	lt, err := f.loadTarget(ctx, target, s, &r, md, bf)
	if err != nil {
		s.close()
		return nil, nil, nil, err
	}
	lt.Apply(opts)
	bf.addresses = lt.CallsPerAddress
	if r.data != nil {
		inputs = r.data.distinct
	}
	return lt.Call, func() { lt.Close(); s.close() }, inputs, nil
}

// loadTarget opens the connections of the chosen engine for the prepared
// requests.
func (f *grpcBenchFlags) loadTarget(ctx context.Context, target string, s *session, r *benchRequests, md metadata.MD, bf *benchFlags) (*loadtarget.Target, error) {
	conns := f.connections
	if f.perConn > 0 {
		conns = (max(bf.opts.Concurrency, 1) + f.perConn - 1) / f.perConn
	}
	o := loadtarget.Options{
		Engine: loadtarget.Engine(f.engine), Method: r.method, Requests: r.reqs,
		Metadata: md, Interval: f.interval, Connections: conns,
		Address: target, Addresses: f.conn.opts.Addresses, Conn: s.conn,
		Dial: func(ctx context.Context) (*invoke.Conn, error) { return f.conn.dial(ctx, target) },
	}
	if r.tmpl != nil {
		o.Render = r.tmpl.requests
	} else if r.data != nil {
		o.Requests, o.Render = nil, r.rowRequests
	}
	if o.Engine == loadtarget.Lean {
		d := f.conn.opts
		d.UserAgent = "rpckit"
		var err error
		if o.Lean, err = loadtarget.LeanOptions(d); err != nil {
			return nil, err
		}
	}
	return loadtarget.New(ctx, o)
}

// prepare resolves the method and encodes its requests once, or parses
// their template.
func (t *benchRequests) prepare(ctx context.Context, s *session, method string, f *grpcBenchFlags, bf *benchFlags, stdio Stdio) error {
	md, err := schema.FindMethod(ctx, s.source, method)
	if err != nil {
		return err
	}
	t.method = md
	codec, err := s.codec(ctx, transcode.MarshalOptions{})
	if err != nil {
		return err
	}
	f.protocol.codec.JSONCodec = codec
	data := f.data
	if f.dataFile != "" {
		if err := t.readData(f, bf, codec); err != nil {
			return err
		}
	}
	if f.dataTemplate {
		t.tmpl, err = newRequestTemplate(data, t.data, codec, md.Input())
		return err
	}
	if t.data != nil {
		return nil
	}
	if data == "" {
		data = "{}"
	}
	in, closeIn, err := openInput(data, stdio.In, f.conn.opts.MaxMsgSize, encoder(codec, md.Input()))
	if err != nil {
		return err
	}
	defer closeIn()
	for {
		wire, err := in.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		t.reqs = append(t.reqs, wire)
	}
	if !md.IsStreamingClient() && len(t.reqs) != 1 {
		return fmt.Errorf("%s takes one request message; the data has %d", md.FullName(), len(t.reqs))
	}
	return nil
}

// readData reads --data-file in --data-order; without a template each row
// is encoded once as a request.
func (t *benchRequests) readData(f *grpcBenchFlags, bf *benchFlags, codec invoke.JSONCodec) error {
	if err := checkDataOrder(f.dataOrder); err != nil {
		return err
	}
	if f.data != "" && !f.dataTemplate {
		return usagef("-d and --data-file both give the requests; give one, or --data-template to render -d with each row as .Data")
	}
	callers := max(bf.opts.Concurrency, 1)
	if bf.callers != "" {
		stages, _ := load.ParseStages(bf.callers)
		callers = load.MaxCallers(stages)
	}
	if f.dataOrder == orderPerCaller && bf.rate != "" {
		return usagef("--data-order per-caller shares the rows among a closed loop's callers; --rate makes an open loop")
	}
	var err error
	if t.data, err = readDataSet(f.dataFile, f.dataOrder, callers, t.method.Input()); err != nil {
		return err
	}
	if f.dataTemplate {
		return nil
	}
	t.rows = make([][][]byte, len(t.data.rows))
	for i, row := range t.data.rows {
		js, err := json.Marshal(row)
		if err != nil {
			return fmt.Errorf("--data-file %s: row %d: %w", f.dataFile, i+1, err)
		}
		wire, err := codec.Encode(nil, t.method.Input(), js)
		if err != nil {
			return fmt.Errorf("--data-file %s: row %d: %w", f.dataFile, i+1, err)
		}
		t.rows[i] = [][]byte{wire}
	}
	return nil
}

// rowRequests is a call's request: its row of the data file.
func (t *benchRequests) rowRequests(ctx context.Context) ([][]byte, error) {
	return t.rows[t.data.pick(load.RecorderFrom(ctx).Worker())], nil
}
