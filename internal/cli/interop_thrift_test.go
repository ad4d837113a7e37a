package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/thrift/lib/go/thrift"
	"github.com/rpckit/rpckit/internal/cli"
	"github.com/rpckit/rpckit/internal/gen/thrift/rpckit/bench"
	"github.com/rpckit/rpckit/internal/thriftfixture"
	"github.com/rpckit/rpckit/internal/thrifttest"
	"github.com/rpckit/rpckit/thrift/client"
	"github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/idl"
	"github.com/rpckit/rpckit/thrift/transcode"
	"github.com/rpckit/rpckit/thrift/wire"
)

const benchIDL = "../../thrift/testdata/bench.thrift"

// thriftSetups are the transport x protocol combinations both the Apache
// Go and Python servers serve.
var thriftSetups = []thrifttest.Setup{
	{Transport: client.Framed}, {Transport: client.Framed, Protocol: wire.Compact}, {Transport: client.Buffered},
	{Transport: client.Buffered, Protocol: wire.Compact}, {Transport: client.Header}, {Transport: client.Header, Protocol: wire.Compact},
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
	gen := thrifttest.PythonGen(t)
	fns := benchFunctions(t)
	for _, s := range thriftSetups {
		for _, server := range []string{"go", "python"} {
			t.Run(server+"/"+s.Name(), func(t *testing.T) {
				var addr string
				var events <-chan string
				if server == "go" {
					h := thrifttest.NewHandler()
					addr, events = thrifttest.Serve(t, s, h), h.Events
				} else {
					addr, events = thrifttest.ServePython(t, gen, s)
				}
				ac := thrifttest.Client(t, s, addr)
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

func runThriftCall(t *testing.T, s thrifttest.Setup, addr, method, data string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var out, errb bytes.Buffer
	code := cli.Main(ctx, []string{"call", "--idl", benchIDL, "--transport", s.Transport.String(), "--protocol", s.Protocol.String(),
		addr, "BenchService." + method, "-d", data}, cli.Stdio{In: strings.NewReader(""), Out: &out, Err: &errb})
	return out.String(), errb.String(), code
}

// checkThriftCall calls k with rpckit and with the Apache Go client and
// compares the JSON rpckit prints with the Apache client's result as JSON.
func checkThriftCall(t *testing.T, s thrifttest.Setup, addr string, ac thrift.TClient, fn *idl.Function, k thriftCase) {
	t.Helper()
	p := s.Protocol
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

func checkThriftOneway(t *testing.T, s thrifttest.Setup, addr string, events <-chan string) {
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
