package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/rpckit/rpckit/invoke"
	"github.com/rpckit/rpckit/load"
	"github.com/rpckit/rpckit/schema"
	"github.com/rpckit/rpckit/transcode"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// grpcBenchFlags bind what a gRPC load test calls and how.
type grpcBenchFlags struct {
	conn         connFlags
	schema       schemaFlags
	data         string
	connections  int
	dataTemplate bool
	dataFile     string
	perConn      int
	interval     time.Duration
	engine       string
}

func (f *grpcBenchFlags) register(fs *pflag.FlagSet) {
	f.conn.register(fs)
	f.schema.register(fs)
	fs.StringVarP(&f.data, "data", "d", "", "request JSON (a sequence of objects for client and bidi streams), `@file` or @-; for a URL, the HTTP body")
	fs.IntVar(&f.connections, "connections", 1, "gRPC connections, used in turn")
	fs.IntVar(&f.perConn, "streams-per-connection", 0, "calls in flight per connection: opens concurrency/N connections (overrides --connections)")
	fs.DurationVar(&f.interval, "stream-interval", 0, "pause between the request messages of a client or bidi stream")
	fs.BoolVar(&f.dataTemplate, "data-template", false, "render -d as a Go template for each call: {{.RequestNumber}}, {{.WorkerID}}, {{.Data.field}}, {{randomInt 1 100}}, {{uuid}}, {{json .Data.name}}")
	fs.StringVar(&f.dataFile, "data-file", "", "JSON-lines `file` whose lines templates see as .Data, shared out among closed-loop workers")
	f.registerEngine(fs)
}

// grpcTarget is one call of any kind, with the requests encoded once.
type grpcTarget struct {
	conns  []*invoke.Conn
	next   atomic.Uint64
	method protoreflect.MethodDescriptor
	reqs   [][]byte         // encoded once, unless templated
	tmpl   *requestTemplate // renders each call's requests
	md     metadata.MD
	pause  time.Duration // between request messages of a stream
}

func (f *grpcBenchFlags) target(cmd *cobra.Command, stdio Stdio, target, method string, bf *benchFlags) (load.Target, func(error) string, func(), error) {
	ctx := cmd.Context()
	if err := f.checkEngine(); err != nil {
		return nil, nil, nil, err
	}
	md, err := f.conn.callMetadata()
	if err != nil {
		return nil, nil, nil, err
	}
	s, err := open(ctx, target, &f.conn, &f.schema)
	if err != nil {
		return nil, nil, nil, err
	}
	t := &grpcTarget{conns: []*invoke.Conn{s.conn}, md: md, pause: f.interval}
	cleanup := func() {
		for _, c := range t.conns[1:] {
			c.Close()
		}
		s.close()
	}
	if err := t.prepare(ctx, s, method, f, bf, stdio); err != nil {
		cleanup()
		return nil, nil, nil, err
	}
	// The requests are encoded (or their template parsed): the load test
	// needs no more of the schema, and an open reflection stream would
	// hold up the server's drain.
	s.endSchema()
	if t.method.IsStreamingServer() || t.method.IsStreamingClient() {
		bf.extraTitle = "Stream messages (time since the previous one)"
	}
	conns := f.connections
	if f.perConn > 0 {
		conns = (max(bf.concurrency, 1) + f.perConn - 1) / f.perConn
	}
	if f.engine == engineLean {
		lt, closeLean, err := f.leanTarget(ctx, target, t, conns, bf.timeout)
		if err != nil {
			cleanup()
			return nil, nil, nil, err
		}
		bf.ownTimeout = true
		return lt.call, grpcCode, func() { closeLean(); cleanup() }, nil
	}
	for i := 1; i < conns; i++ {
		c, err := f.conn.dial(ctx, target)
		if err != nil {
			cleanup()
			return nil, nil, nil, err
		}
		t.conns = append(t.conns, c)
	}
	return t.call, grpcCode, cleanup, nil
}

// prepare resolves the method and encodes its requests once, or parses
// their template.
func (t *grpcTarget) prepare(ctx context.Context, s *session, method string, f *grpcBenchFlags, bf *benchFlags, stdio Stdio) error {
	md, err := schema.FindMethod(ctx, s.source, method)
	if err != nil {
		return err
	}
	t.method = md
	codec, err := s.codec(ctx, transcode.MarshalOptions{})
	if err != nil {
		return err
	}
	data := f.data
	if f.dataTemplate {
		workers := 0
		if bf.rate == "" {
			workers = max(bf.concurrency, 1)
		}
		t.tmpl, err = newRequestTemplate(data, f.dataFile, workers, codec, md.Input())
		return err
	}
	if f.dataFile != "" {
		return usagef("--data-file needs --data-template")
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

func (t *grpcTarget) conn() *invoke.Conn {
	return t.conns[t.next.Add(1)%uint64(len(t.conns))]
}

// call makes one call; for streams, the whole stream, recording the
// latency of each response message as it comes.
func (t *grpcTarget) call(ctx context.Context) error {
	if len(t.md) > 0 {
		ctx = metadata.NewOutgoingContext(ctx, t.md)
	}
	reqs := t.reqs
	if t.tmpl != nil {
		var err error
		if reqs, err = t.tmpl.requests(ctx); err != nil {
			return err
		}
	}
	c := t.conn()
	if !t.method.IsStreamingClient() && !t.method.IsStreamingServer() {
		if len(reqs) != 1 {
			return fmt.Errorf("%s takes one request message; the data has %d", t.method.FullName(), len(reqs))
		}
		_, err := c.Unary(ctx, t.method, reqs[0])
		return err
	}
	start := time.Now()
	st, err := c.NewStream(ctx, t.method)
	if err != nil {
		return err
	}
	for i, req := range reqs {
		if i > 0 && t.pause > 0 && !sleepCtx(ctx, t.pause) {
			break
		}
		if err := st.Send(req); err != nil {
			break // the server ended the call; Recv says how
		}
	}
	if err := st.CloseSend(); err != nil {
		return err
	}
	return receiveAll(ctx, st, start)
}

// receiveAll reads a stream to its end, recording for each response
// message the time since the previous one (the first: since the start).
func receiveAll(ctx context.Context, st *invoke.Stream, last time.Time) error {
	rec := load.RecorderFrom(ctx)
	for {
		_, err := st.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if rec != nil {
			now := time.Now()
			rec.Record(now.Sub(last))
			last = now
		}
	}
}

// grpcCode labels a call's outcome by its gRPC status code name.
func grpcCode(err error) string {
	if err == nil {
		return "OK"
	}
	if st, ok := status.FromError(err); ok {
		return invoke.CodeName(st.Code())
	}
	return load.DefaultCode(err)
}

// sleepCtx waits for d, or less if ctx ends first; it reports whether the
// full time passed.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
