package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/rpckit/rpckit/invoke"
	"github.com/rpckit/rpckit/invoke/mdvalue"
	"github.com/rpckit/rpckit/schema"
	"github.com/spf13/cobra"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoreflect"
)

type callFlags struct {
	conn     connFlags
	policy   policyFlags
	protocol protocolFlags
	schema   schemaFlags
	json     jsonFlags
	data     string
	timeout  time.Duration
	verbose  bool
	thrift   thriftCallFlags
}

func newCallCmd(stdio Stdio) *cobra.Command {
	var f callFlags
	cmd := &cobra.Command{
		Use:   "call TARGET METHOD | call --idl FILE HOST:PORT Service.method",
		Short: "Call a gRPC or Thrift method with JSON requests and print JSON responses",
		Long: `Call METHOD (pkg.Service/Method or pkg.Service.Method) on TARGET. Requests are
JSON: -d '{...}', -d @file, or -d @- for stdin. Client- and bidi-streaming
calls read a sequence of JSON objects and send each as soon as it is complete,
so messages can be typed one at a time; without -d they read stdin. Each
response message is printed as one JSON document: indented on a terminal,
one per line otherwise.

` + protocolHelp + `

With --idl FILE (its includes found in -I directories), METHOD is a Thrift
method, Service.method, called on HOST:PORT with --transport framed
(default), buffered or header, --protocol binary (default) or compact, and
--multiplexed NAME for a multiplexed server; plaintext unless a TLS flag
(--cacert, --cert, --insecure, --servername) is given. -d is the method's
arguments struct as JSON, its IDL field names as keys ({"req": {...}}); the
success value is printed as JSON (a void method prints nothing, a oneway one
is sent and not answered), a declared exception as {"TypeName": {...}} with
exit code 96, an application exception on stderr with exit code 100+type.

` + exitCodesHelp,
		Example: `  rpckit call --plaintext 127.0.0.1:50051 rpckit.ranking.v1.RankingService/Rank -d '{"context":{"userId":"u1"},"candidateCount":1000}'
  rpckit call --protoset api.pb -H 'authorization: Bearer ${TOKEN}' api.example.com:443 pkg.Svc/Method -d @req.json
  rpckit call --protocol connect --codec json --plaintext --protoset api.pb 127.0.0.1:8080 pkg.Svc/Method -d '{}'
  rpckit call --idl ranking.thrift 127.0.0.1:9091 RankingService.Rank -d '{"request":{"context":{"user_id":"u1"},"candidate_count":100}}'`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 2 {
				return usagef("want TARGET and METHOD, got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.thrift.idl.file != "" {
				f.thrift.protocol = f.protocol.name
				return runThriftCall(cmd, stdio, &f, args[0], args[1])
			}
			if err := checkThriftOnly(cmd.Flags()); err != nil {
				return err
			}
			return runCall(cmd, stdio, &f, args[0], args[1])
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&f.data, "data", "d", "", "request JSON, `@file`, or @- for stdin")
	durationVar(fs, &f.timeout, "timeout", 0, "deadline of the call, sent to the server (default none)")
	fs.BoolVarP(&f.verbose, "verbose", "v", false, "print request metadata, response headers, trailers and timing to stderr")
	f.conn.register(fs)
	f.policy.register(fs)
	f.protocol.register(fs)
	f.schema.register(fs)
	f.json.register(fs)
	f.thrift.register(fs)
	return cmd
}

func runCall(cmd *cobra.Command, stdio Stdio, f *callFlags, target, method string) error {
	ctx := cmd.Context()
	md, err := f.conn.callMetadata()
	if err != nil {
		return err
	}
	if err := f.policy.apply(&f.conn, target, nil); err != nil {
		return err
	}
	if err := f.protocol.apply(cmd.Flags(), &f.conn.opts); err != nil {
		return err
	}
	s, err := open(ctx, target, &f.conn, &f.schema)
	if err != nil {
		return err
	}
	defer s.close()
	mdesc, err := schema.FindMethod(ctx, s.source, method)
	if err != nil {
		return err
	}
	codec, err := s.codec(ctx, f.json.opts)
	if err != nil {
		return err
	}
	f.protocol.codec.JSONCodec = codec
	data := f.data
	if data == "" && !mdesc.IsStreamingClient() {
		data = "{}"
	} else if data == "" {
		data = "@-"
	}
	in, closeIn, err := openInput(data, stdio.In, f.conn.opts.MaxMsgSize, encoder(codec, mdesc.Input()))
	if err != nil {
		return err
	}
	defer closeIn()
	out := codec
	if f.json.indent(cmd, stdio) {
		out.Options.Indent = "  "
	}
	c := &caller{
		conn: s.conn, method: mdesc, codec: codec, out: out, in: in, stdio: stdio,
		verbose: f.verbose,
	}
	if f.verbose {
		c.printMetadata("Request metadata", md)
	}
	ctx = metadata.NewOutgoingContext(ctx, md)
	if f.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, f.timeout)
		defer cancel()
	}
	return c.run(ctx)
}

// caller runs one call of any kind.
type caller struct {
	conn    *invoke.Conn
	method  protoreflect.MethodDescriptor
	codec   invoke.JSONCodec // requests and status details: compact
	out     invoke.JSONCodec // responses, indented or not as asked
	in      *messageReader
	stdio   Stdio
	verbose bool

	sent     atomic.Int64 // written by the sending goroutine
	received int
	buf      []byte
}

func (c *caller) run(ctx context.Context) error {
	start := time.Now()
	var err error
	if !c.method.IsStreamingClient() && !c.method.IsStreamingServer() {
		err = c.unary(ctx)
	} else {
		err = c.stream(ctx)
	}
	if c.verbose {
		fmt.Fprintf(c.stdio.Err, "Sent %d, received %d in %s; status %s\n",
			c.sent.Load(), c.received, time.Since(start).Round(time.Microsecond), invoke.CodeName(status.Code(err)))
	}
	return c.callFailure(err)
}

// single reads the one request of a unary or server-streaming call; no
// input at all means the empty message.
func (c *caller) single() ([]byte, error) {
	req, err := c.in.next()
	if err == io.EOF {
		req = []byte{} // the empty message
	} else if err != nil {
		return nil, err
	}
	if _, err := c.in.next(); err != io.EOF {
		return nil, fmt.Errorf("%s takes one request message; the input has more", c.method.FullName())
	}
	return req, nil
}

func (c *caller) unary(ctx context.Context) error {
	req, err := c.single()
	if err != nil {
		return err
	}
	c.sent.Add(1)
	resp, err := c.conn.Unary(ctx, c.method, req)
	if c.verbose {
		c.printMetadata("Response headers", resp.Header)
	}
	if err == nil {
		err = c.print(resp.Message)
	}
	if c.verbose {
		c.printMetadata("Response trailers", resp.Trailer)
	}
	return err
}

func (c *caller) stream(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	st, err := c.conn.NewStream(ctx, c.method)
	if err != nil {
		return err
	}
	sendErr := make(chan error, 1)
	go func() {
		err := c.sendAll(st)
		sendErr <- err
		if err != nil {
			cancel() // bad input ends the call, after saying why
		}
	}()
	recvErr := c.receiveAll(st)
	// The sender may still be blocked reading input that will never come;
	// once the call is over it is not waited for.
	select {
	case err := <-sendErr:
		if err != nil {
			return err
		}
	default:
	}
	if c.verbose {
		c.printMetadata("Response trailers", st.Trailer())
	}
	return recvErr
}

// sendAll sends the requests and half-closes the call once they are all
// sent. Bad input leaves the call open for stream's cancel to end: half
// closed, it could end normally on the requests sent so far, as if they
// were all there were, before stream heard of the error.
func (c *caller) sendAll(st *invoke.Stream) error {
	err := c.sendRequests(st)
	if err == nil {
		st.CloseSend()
	}
	return err
}

func (c *caller) sendRequests(st *invoke.Stream) error {
	if !c.method.IsStreamingClient() {
		req, err := c.single()
		if err != nil {
			return err
		}
		c.sent.Add(1)
		if err := st.Send(req); err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		return nil
	}
	for {
		req, err := c.in.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := st.Send(req); err != nil {
			return nil // the server ended the call; Recv reports how
		}
		c.sent.Add(1)
	}
}

func (c *caller) receiveAll(st *invoke.Stream) error {
	headersShown := false
	for {
		msg, err := st.Recv()
		if c.verbose && !headersShown {
			headersShown = true
			hdr, _ := st.Header()
			c.printMetadata("Response headers", hdr)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := c.print(msg); err != nil {
			return err
		}
	}
}

// print writes one response message as a JSON document.
func (c *caller) print(msg []byte) error {
	c.received++
	js, err := c.out.Decode(c.buf[:0], c.method.Output(), msg)
	if err != nil {
		return &inputError{subject: fmt.Sprintf("response %d", c.received), err: err}
	}
	c.buf = append(js, '\n')
	_, err = c.stdio.Out.Write(c.buf)
	return err
}

func (c *caller) printMetadata(title string, md metadata.MD) {
	fmt.Fprintf(c.stdio.Err, "%s:\n", title)
	if len(md) == 0 {
		fmt.Fprintln(c.stdio.Err, "  (none)")
		return
	}
	keys := make([]string, 0, len(md))
	for k := range md {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range md[k] {
			fmt.Fprintf(c.stdio.Err, "  %s: %s\n", k, mdvalue.Text(k, v))
		}
	}
}

// callFailure turns a failed RPC into its message, its decoded details and
// exit code 64+code.
func (c *caller) callFailure(err error) error {
	var ie *invoke.Error
	if !errors.As(err, &ie) {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s: %s", c.method.FullName(), invoke.CodeName(ie.Status.Code()), ie.Status.Message())
	for _, d := range invoke.DetailsJSON(c.codec, ie.Status) {
		fmt.Fprintf(&b, "\n  details: %s", d)
	}
	return &exitError{code: 64 + int(ie.Status.Code()), err: rendered(b.String())}
}
