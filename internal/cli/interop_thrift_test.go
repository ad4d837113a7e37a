package cli_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/rpckit/rpckit/internal/cli"
	"github.com/rpckit/rpckit/internal/gen/thrift/rpckit/bench"
	"github.com/rpckit/rpckit/internal/thriftfixture"
	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/idl"
	"github.com/rpckit/rpckit/thrift/transcode"
	"github.com/rpckit/rpckit/thrift/wire"
)

const benchIDL = "../../thrift/testdata/bench.thrift"

// thriftSetup is one transport x protocol, as call --idl names them.
type thriftSetup struct{ transport, protocol string }

func (s thriftSetup) wire() wire.Protocol {
	if s.protocol == "compact" {
		return wire.Compact
	}
	return wire.Binary
}

var thriftSetups = []thriftSetup{
	{"framed", "binary"}, {"framed", "compact"}, {"buffered", "binary"},
	{"buffered", "compact"}, {"header", "binary"}, {"header", "compact"},
}

// thriftCase is one call of BenchService: the Apache arguments (given to
// rpckit call as their JSON), a fresh result, and the exit code wanted.
type thriftCase struct {
	method string
	args   thrift.TStruct
	result func() thrift.TStruct
	code   int
}

func thriftCases() []thriftCase {
	return []thriftCase{
		{"Echo", &bench.BenchServiceEchoArgs{Req: thriftfixture.Small()}, func() thrift.TStruct { return bench.NewBenchServiceEchoResult() }, 0},
		{"GetMedium", &bench.BenchServiceGetMediumArgs{ID: 7, Title: "seven"}, func() thrift.TStruct { return bench.NewBenchServiceGetMediumResult() }, 0},
		{"GetMedium", &bench.BenchServiceGetMediumArgs{ID: -3, Title: "no such page"}, func() thrift.TStruct { return bench.NewBenchServiceGetMediumResult() }, 96},
		{"PutMedium", &bench.BenchServicePutMediumArgs{Req: thriftfixture.Medium()}, func() thrift.TStruct { return bench.NewBenchServicePutMediumResult() }, 0},
		{"Trim", &bench.BenchServiceTrimArgs{Req: thriftfixture.Medium()}, func() thrift.TStruct { return bench.NewBenchServiceTrimResult() }, 0},
		{"Grow", &bench.BenchServiceGrowArgs{Seed: thriftfixture.Medium(), Pages: 3}, func() thrift.TStruct { return bench.NewBenchServiceGrowResult() }, 0},
		{"Fail", &bench.BenchServiceFailArgs{Code: 42, Message: "refused"}, func() thrift.TStruct { return bench.NewBenchServiceFailResult() }, 96},
	}
}

// TestInteropThriftCall: rpckit call --idl of every BenchService method
// against the Apache Go server and the Apache Python server, on every
// transport x protocol both serve, prints what the Apache Go client gets
// from the same server, as JSON: the success value, or the declared
// exception under its type's name with exit code 96; Notify, oneway,
// reaches the server and prints nothing.
func TestInteropThriftCall(t *testing.T) {
	if out, err := exec.Command("python3", "-c", "import thrift.protocol.THeaderProtocol").CombinedOutput(); err != nil {
		t.Fatalf("python3 with PyPI's thrift is needed (make test installs it): %v\n%s", err, out)
	}
	gen := t.TempDir()
	if out, err := exec.Command("thrift", "--gen", "py", "-out", gen, benchIDL).CombinedOutput(); err != nil {
		t.Fatalf("thrift --gen py (make test installs the compiler): %v\n%s", err, out)
	}
	fns := benchFunctions(t)
	for _, s := range thriftSetups {
		for _, server := range []string{"go", "python"} {
			t.Run(server+"/"+s.transport+"/"+s.protocol, func(t *testing.T) {
				var addr string
				var events <-chan string
				if server == "go" {
					addr, events = serveApacheGo(t, s)
				} else {
					addr, events = serveApachePython(t, gen, s)
				}
				ac := apacheThriftClient(t, s, addr)
				for _, k := range thriftCases() {
					checkThriftCall(t, s, addr, ac, fns[k.method], k)
				}
				checkThriftOneway(t, s, addr, events)
			})
		}
	}
}

func benchFunctions(t *testing.T) map[string]*idl.Function {
	t.Helper()
	f, err := idl.ParseFile("bench.thrift", idl.Options{FS: os.DirFS(filepath.Dir(benchIDL))})
	if err != nil {
		t.Fatal(err)
	}
	fns := map[string]*idl.Function{}
	for _, fn := range f.Services[0].Functions {
		fns[fn.Name] = fn
	}
	return fns
}

func runThriftCall(t *testing.T, s thriftSetup, addr, method, data string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var out, errb bytes.Buffer
	code := cli.Main(ctx, []string{"call", "--idl", benchIDL, "--transport", s.transport, "--protocol", s.protocol,
		addr, "BenchService." + method, "-d", data}, cli.Stdio{In: strings.NewReader(""), Out: &out, Err: &errb})
	return out.String(), errb.String(), code
}

// checkThriftCall calls k with rpckit and with the Apache Go client and
// compares the JSON rpckit prints with the Apache client's result as JSON.
func checkThriftCall(t *testing.T, s thriftSetup, addr string, ac thrift.TClient, fn *idl.Function, k thriftCase) {
	t.Helper()
	p := s.wire()
	var cache dynamic.Cache
	args, err := thriftfixture.Encode(p, k.args)
	if err != nil {
		t.Fatal(err)
	}
	argsJSON, err := transcode.MarshalOptions{Protocol: p}.Marshal(cache.Type(ownType(fn.Args)), args)
	if err != nil {
		t.Fatalf("%s: arguments to JSON: %v", k.method, err)
	}
	out, errs, code := runThriftCall(t, s, addr, k.method, string(argsJSON))
	if code != k.code {
		t.Fatalf("%s: exit %d, want %d; stderr %q", k.method, code, k.code, errs)
	}
	want := k.result()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := ac.Call(ctx, k.method, k.args, want); err != nil {
		t.Fatalf("%s: apache client: %v", k.method, err)
	}
	got := k.result()
	if err := thriftfixture.Decode(p, resultFromJSON(t, p, &cache, fn, out), got); err != nil {
		t.Fatalf("%s: %v", k.method, err)
	}
	if a, b := canonicalThrift(t, p, got), canonicalThrift(t, p, want); !bytes.Equal(a, b) {
		t.Errorf("%s: rpckit printed\n%.2000s\nwhich differs from the Apache client's result", k.method, out)
	}
	if k.code == 96 && !strings.Contains(errs, "BenchService."+k.method+": exception BenchError") {
		t.Errorf("%s: stderr %q", k.method, errs)
	}
}

// resultFromJSON turns what rpckit call printed back into the result
// struct: {"success": value}, or {"field": exception} for its
// {"Type": exception}.
func resultFromJSON(t *testing.T, p wire.Protocol, cache *dynamic.Cache, fn *idl.Function, out string) []byte {
	t.Helper()
	member := "success"
	value := json.RawMessage(out)
	var exc map[string]json.RawMessage
	if json.Unmarshal(value, &exc) == nil && len(exc) == 1 {
		for name, v := range exc {
			for _, f := range fn.Result.Fields {
				if f.ID != 0 && f.Type.Name == name {
					member, value = f.Name, v
				}
			}
		}
	}
	js, err := json.Marshal(map[string]json.RawMessage{member: value})
	if err != nil {
		t.Fatalf("stdout %q: %v", out, err)
	}
	b, err := transcode.UnmarshalOptions{Protocol: p}.Unmarshal(cache.Type(ownType(fn.Result)), js)
	if err != nil {
		t.Fatalf("stdout %q: %v", out, err)
	}
	return b
}

func canonicalThrift(t *testing.T, p wire.Protocol, s thrift.TStruct) []byte {
	t.Helper()
	b, err := thriftfixture.Encode(p, s)
	if err != nil {
		t.Fatal(err)
	}
	if b, err = thriftfixture.Canonical(p, b); err != nil {
		t.Fatal(err)
	}
	return b
}

// ownType gives an argument or result struct the Type the IDL model
// leaves out.
func ownType(s *idl.Struct) *idl.Type {
	return &idl.Type{Kind: idl.StructKind, Name: s.Name, File: s.File, Struct: s}
}

func checkThriftOneway(t *testing.T, s thriftSetup, addr string, events <-chan string) {
	t.Helper()
	out, errs, code := runThriftCall(t, s, addr, "Notify", `{"event":"hello"}`)
	if code != 0 || out != "" {
		t.Fatalf("Notify: exit %d, stdout %q, stderr %q; want exit 0 and nothing printed", code, out, errs)
	}
	select {
	case e := <-events:
		if e != "hello" {
			t.Errorf("Notify delivered %q", e)
		}
	case <-time.After(10 * time.Second):
		t.Error("Notify never reached the server")
	}
}

// benchHandler is BenchService as the Python test server serves it.
type benchHandler struct{ events chan string }

func (h *benchHandler) Echo(_ context.Context, req *bench.Small) (*bench.Small, error) {
	return req, nil
}

func (h *benchHandler) GetMedium(_ context.Context, id int64, title string) (*bench.Medium, error) {
	if id < 0 {
		return nil, &bench.BenchError{Code: int32(id), Message: title}
	}
	return &bench.Medium{Title: title, Total: id, Tags: []string{"a", "b"}}, nil
}

func (h *benchHandler) PutMedium(_ context.Context, req *bench.Medium) (*bench.Medium, error) {
	return req, nil
}

func (h *benchHandler) Trim(_ context.Context, req *bench.Medium) (*bench.MediumPart, error) {
	part := func(s *bench.Small) *bench.SmallPart {
		return &bench.SmallPart{Tiny: s.Tiny, Score: s.Score, Blob: s.Blob}
	}
	out := &bench.MediumPart{ByName: map[string]*bench.SmallPart{}}
	for _, s := range req.Items {
		out.Items = append(out.Items, part(s))
	}
	for k, s := range req.ByName {
		out.ByName[k] = part(s)
	}
	if req.Head != nil {
		out.Head = part(req.Head)
	}
	return out, nil
}

func (h *benchHandler) Grow(_ context.Context, seed *bench.Medium, pages int32) (*bench.Large, error) {
	l := &bench.Large{Main: seed, Head: seed.Head, Count: pages, Note: "grown"}
	for range pages {
		l.Pages = append(l.Pages, seed)
	}
	return l, nil
}

func (h *benchHandler) Notify(_ context.Context, event string) error {
	h.events <- event
	return nil
}

func (h *benchHandler) Fail(_ context.Context, code int32, message string) error {
	return &bench.BenchError{Code: code, Message: message}
}

func thriftFactories(s thriftSetup) (thrift.TTransportFactory, thrift.TProtocolFactory) {
	cfg := &thrift.TConfiguration{}
	switch {
	case s.transport == "header":
		return thrift.NewTHeaderTransportFactoryConf(nil, cfg), thrift.NewTHeaderProtocolFactoryConf(cfg)
	case s.transport == "framed" && s.protocol == "compact":
		return thrift.NewTFramedTransportFactoryConf(thrift.NewTTransportFactory(), cfg), thrift.NewTCompactProtocolFactoryConf(cfg)
	case s.transport == "framed":
		return thrift.NewTFramedTransportFactoryConf(thrift.NewTTransportFactory(), cfg), thrift.NewTBinaryProtocolFactoryConf(cfg)
	case s.protocol == "compact":
		return thrift.NewTBufferedTransportFactory(4096), thrift.NewTCompactProtocolFactoryConf(cfg)
	}
	return thrift.NewTBufferedTransportFactory(4096), thrift.NewTBinaryProtocolFactoryConf(cfg)
}

// serveApacheGo serves BenchService with the Apache Go library on
// loopback until the test ends.
func serveApacheGo(t *testing.T, s thriftSetup) (string, <-chan string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h := &benchHandler{events: make(chan string, 16)}
	sock := thrift.NewTServerSocketFromFactoryTimeout(func(net.Addr) (net.Listener, error) { return ln, nil }, ln.Addr(), 0)
	tf, pf := thriftFactories(s)
	srv := thrift.NewTSimpleServer4(bench.NewBenchServiceProcessor(h), sock, tf, pf)
	srv.SetLogContext(context.Background())
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); srv.AcceptLoop() }()
	t.Cleanup(func() { srv.Stop(); <-done })
	return ln.Addr().String(), h.events
}

// apacheThriftClient is the Apache Go client for s at addr.
func apacheThriftClient(t *testing.T, s thriftSetup, addr string) thrift.TClient {
	t.Helper()
	cfg := &thrift.TConfiguration{ConnectTimeout: 5 * time.Second, SocketTimeout: 10 * time.Second}
	var trans thrift.TTransport = thrift.NewTSocketConf(addr, cfg)
	switch s.transport {
	case "framed":
		trans = thrift.NewTFramedTransportConf(trans, cfg)
	case "buffered":
		trans = thrift.NewTBufferedTransport(trans, 4096)
	case "header":
		id := thrift.THeaderProtocolBinary
		if s.protocol == "compact" {
			id = thrift.THeaderProtocolCompact
		}
		cfg.THeaderProtocolID = &id
		trans = thrift.NewTHeaderTransportConf(trans, cfg)
	}
	if err := trans.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { trans.Close() })
	var prot thrift.TProtocol
	switch {
	case s.transport == "header":
		prot = thrift.NewTHeaderProtocolConf(trans, cfg)
	case s.protocol == "compact":
		prot = thrift.NewTCompactProtocolConf(trans, cfg)
	default:
		prot = thrift.NewTBinaryProtocolConf(trans, cfg)
	}
	return thrift.NewTStandardClient(prot, prot)
}

// serveApachePython starts thrift/client's Python test server for s and
// returns its address and the events its Notify prints.
func serveApachePython(t *testing.T, gen string, s thriftSetup) (string, <-chan string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, "python3", "../../thrift/client/testdata/bench_server.py", gen, s.transport, s.protocol)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		if err := cmd.Wait(); err != nil && ctx.Err() == nil {
			t.Errorf("python server: %v\n%s", err, stderr.String())
		}
	})
	lines := bufio.NewScanner(stdout)
	var port int
	if !lines.Scan() {
		t.Fatalf("python server printed no port:\n%s", stderr.String())
	}
	if _, err := fmt.Sscanf(lines.Text(), "port %d", &port); err != nil {
		t.Fatalf("python server: %q: %v", lines.Text(), err)
	}
	events := make(chan string, 16)
	go func() {
		for lines.Scan() {
			if e, ok := strings.CutPrefix(lines.Text(), "event "); ok {
				events <- e
			}
		}
	}()
	return fmt.Sprintf("127.0.0.1:%d", port), events
}
