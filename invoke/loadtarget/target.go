package loadtarget

import (
	"context"
	"fmt"
	"time"

	"github.com/rpckit/rpckit/invoke"
	"github.com/rpckit/rpckit/invoke/lean"
	"github.com/rpckit/rpckit/load"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Engine names the gRPC client a target calls with.
type Engine string

// The engines. Both report the same things the same way: status codes,
// errors, stream message latencies.
const (
	// Lean is invoke/lean, rpckit's own HTTP/2 client: a fraction of
	// grpc-go's CPU per call, so the load generator is not what limits the
	// run. The default.
	Lean Engine = "lean"
	// GRPC is grpc-go through invoke, for fidelity.
	GRPC Engine = "grpc"
	// Connect is connect-go through invoke: gRPC-Web or Connect, as the
	// Conn's protocol says (see invoke.DialOptions.Protocol).
	Connect Engine = "connect"
)

// ParseEngine reads an engine's name; empty means Lean.
func ParseEngine(s string) (Engine, error) {
	switch e := Engine(s); e {
	case "":
		return Lean, nil
	case Lean, GRPC, Connect:
		return e, nil
	}
	return "", fmt.Errorf("loadtarget: engine %q: want lean, grpc or connect", s)
}

// Options describe what a target calls and how. Method and one of
// Requests or Render are required; the connection fields the engine uses
// (Address and Lean for Lean; Conn, and Dial for more than one
// connection, for GRPC) too.
type Options struct {
	// Engine is the client; empty means Lean.
	Engine Engine
	// Method is the method called.
	Method protoreflect.MethodDescriptor
	// Requests are the request messages, encoded: one, or for client and
	// bidi streams any number, sent in order.
	Requests [][]byte
	// Render, when set, gives each call its own requests instead (a
	// template rendered per call).
	Render func(ctx context.Context) ([][]byte, error)
	// Metadata is sent with every call.
	Metadata metadata.MD
	// Interval is the pause between the request messages of a stream.
	Interval time.Duration
	// Connections is the number of connections calls take in turn
	// (default 1).
	Connections int

	// Address is what Lean dials (host:port, unix:path, or dns:///host:port
	// for every address the name resolves to), with Lean's options (see
	// LeanOptions). Lean speaks gRPC-Web or Connect (unary, binary) over
	// HTTP/2 when Conn's protocol says so.
	Address string
	Lean    lean.Options
	// Addresses, when set, are what Lean dials instead, Address being
	// only the authority. With more than one address, Lean opens at
	// least a connection per address, Connections rounded up to a
	// multiple of them, so calls taking the connections in turn spread
	// evenly; an address that does not answer is left out (counted as
	// 0) as long as one does.
	Addresses []string

	// Conn is the first connection of GRPC and Connect (whose protocol
	// must be theirs); the target uses it and leaves it open. Dial opens
	// the others (Connections > 1).
	Conn *invoke.Conn
	Dial func(ctx context.Context) (*invoke.Conn, error)
}

// Target is a gRPC method's load target.
type Target struct {
	call  load.Target
	close func()
	lean  *leanTarget    // nil for GRPC
	addrs *addressCounts // nil unless the calls may reach several addresses
}

// CallsPerAddress returns the calls made so far (warm-up included) by
// the address that served them, when the target may reach more than one
// (Addresses, or a dns:/// target); nil otherwise.
func (t *Target) CallsPerAddress() map[string]int64 {
	if t.addrs == nil {
		return nil
	}
	return t.addrs.snapshot()
}

// New builds the target, opening its connections.
func New(ctx context.Context, opts Options) (*Target, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	e, err := ParseEngine(string(opts.Engine))
	if err != nil {
		return nil, err
	}
	if err := checkProtocol(e, opts.Conn); err != nil {
		return nil, err
	}
	switch e {
	case GRPC, Connect:
		return newInvoke(ctx, e, opts)
	}
	return newLean(ctx, opts)
}

// checkProtocol refuses an engine that cannot speak conn's protocol:
// Connect speaks gRPC-Web and Connect, GRPC gRPC, and Lean all three over
// HTTP/2 (Connect's unary calls only, with binary messages).
func checkProtocol(e Engine, conn *invoke.Conn) error {
	if conn == nil {
		return nil
	}
	p := conn.Protocol()
	ok := map[Engine]bool{
		Connect: p != invoke.ProtocolGRPC,
		GRPC:    p == invoke.ProtocolGRPC,
		Lean:    true,
	}[e]
	if !ok {
		return fmt.Errorf("loadtarget: the %s engine cannot speak %s", e, p)
	}
	return nil
}

func (o *Options) check() error {
	if o.Method == nil {
		return fmt.Errorf("loadtarget: no method")
	}
	if o.Render == nil {
		return checkCount(o.Method, len(o.Requests))
	}
	return nil
}

// checkCount refuses n request messages for a method that takes one.
func checkCount(md protoreflect.MethodDescriptor, n int) error {
	if !md.IsStreamingClient() && n != 1 {
		return fmt.Errorf("%s takes one request message; the data has %d", md.FullName(), n)
	}
	return nil
}

// Call makes one call; for streams, the whole stream, recording the
// latency of each response message since the previous one (the first:
// since the start) through the call's load.Recorder.
func (t *Target) Call(ctx context.Context) error { return t.call(ctx) }

// Close closes the connections the target opened.
func (t *Target) Close() { t.close() }

// Apply sets what o needs for this target: Code, and for Lean, which
// bounds each call by o.Timeout itself at less cost than a context per
// call, the timeout moved into the target (o.Timeout zero, o.Drain
// defaulting to the lesser of load.DefaultDrain and the timeout). Call it
// before the run.
func (t *Target) Apply(o *load.Options) {
	o.Code = Code
	if t.lean == nil {
		return
	}
	t.lean.opts.Timeout = o.Timeout
	if o.Drain == 0 {
		o.Drain = min(load.DefaultDrain, o.Timeout)
	}
	o.Timeout = 0
}

// Code labels a call's outcome by its gRPC status code name ("OK",
// "UNAVAILABLE"), and other errors as load.DefaultCode does.
func Code(err error) string {
	if err == nil {
		return "OK"
	}
	if st, ok := status.FromError(err); ok {
		return invoke.CodeName(st.Code())
	}
	return load.DefaultCode(err)
}

// requests are a call's requests: rendered, or the prepared ones.
func (o *Options) requests(ctx context.Context) ([][]byte, error) {
	if o.Render == nil {
		return o.Requests, nil
	}
	reqs, err := o.Render(ctx)
	if err != nil {
		return nil, err
	}
	return reqs, checkCount(o.Method, len(reqs))
}
