package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/rpckit/rpckit/dynamic"
	"github.com/rpckit/rpckit/invoke"
	"github.com/rpckit/rpckit/invoke/loadtarget"
	"github.com/rpckit/rpckit/load"
	"github.com/rpckit/rpckit/schema"
	"github.com/rpckit/rpckit/transcode"
	"github.com/spf13/cobra"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// A chained flow is a sequence of unary calls on one target, made one
// after the other as one call of the flow; a step's request may use a
// value of an earlier step's response:
//
//	steps:
//	  - name: rank
//	    method: pkg.Ranking/Rank
//	    data: '{"userId": "u1"}'
//	  - name: feedback
//	    method: pkg.Ranking/Feedback
//	    data: '{"itemId": "${rank.items[0].id}", "score": 1}'
//
// ${STEP.PATH} is replaced by the JSON of the value at PATH (the syntax of
// convert --get) in STEP's response; written as a whole JSON string,
// "${...}", the quotes go too, so a number stays a number. A call fails at
// its first failed step; a reference with no value in the response fails
// the step. Each step's latency is recorded apart.

// A chainStepSpec is one step as the scenario file gives it.
type chainStepSpec struct {
	line   int
	name   string
	method string
	data   string
}

// A chainStep is a step ready to call: gRPC's or Thrift's way of
// encoding its request and making its call.
type chainStep struct {
	name   string
	parts  []chainPart // the request's JSON: text and references
	wire   []byte      // the request, when it has no references
	encode func(js []byte) ([]byte, error)
	call   func(ctx context.Context, req []byte) (resp []byte, err error)
	stats  stepStats
}

// A chainPart is literal JSON text, or a reference to an earlier step's
// response (step >= 0), which pick reads as JSON from that response.
type chainPart struct {
	text string
	step int
	ref  string
	pick func(dst, resp []byte) ([]byte, error)
}

// A chainRefs resolves a ${STEP.PATH} reference, PATH in the response of
// the earlier step k, to the function that reads it from a response.
type chainRefs func(k int, path string) (func(dst, resp []byte) ([]byte, error), error)

// stepStats are the measured calls of one step.
type stepStats struct {
	mu     sync.Mutex
	ok     *load.Histogram
	failed *load.Histogram
	codes  map[string]int64
}

// chainTarget calls the steps in turn.
type chainTarget struct {
	steps []*chainStep
	code  func(error) string // the label of a call's outcome
}

// chainTarget builds the load target of a chained flow.
func (f *grpcBenchFlags) chainTarget(cmd *cobra.Command, target string, specs []chainStepSpec, opts *load.Options) (*chainTarget, func(), error) {
	ctx := cmd.Context()
	md, err := f.conn.callMetadata()
	if err != nil {
		return nil, nil, err
	}
	s, err := open(ctx, target, &f.conn, &f.schema)
	if err != nil {
		return nil, nil, err
	}
	codec, err := s.codec(ctx, transcode.MarshalOptions{})
	if err != nil {
		s.close()
		return nil, nil, err
	}
	g := &grpcChain{conn: s.conn, codec: codec, md: md}
	c := &chainTarget{code: loadtarget.Code}
	for i, spec := range specs {
		st, err := g.prepareStep(ctx, s.source, spec, specs[:i])
		if err != nil {
			s.close()
			return nil, nil, fmt.Errorf("step %q: %w", spec.name, err)
		}
		c.steps = append(c.steps, st)
	}
	s.endSchema()
	opts.Code = c.code
	return c, s.close, nil
}

// grpcChain makes a chain's gRPC calls on one connection.
type grpcChain struct {
	conn    *invoke.Conn
	codec   invoke.JSONCodec
	md      metadata.MD
	methods []protoreflect.MethodDescriptor // the steps' so far
}

func (g *grpcChain) prepareStep(ctx context.Context, src schema.Source, spec chainStepSpec, before []chainStepSpec) (*chainStep, error) {
	md, err := schema.FindMethod(ctx, src, spec.method)
	if err != nil {
		return nil, err
	}
	if md.IsStreamingClient() || md.IsStreamingServer() {
		return nil, fmt.Errorf("%s is a stream; a chain calls unary methods", md.FullName())
	}
	g.methods = append(g.methods, md)
	encode := func(js []byte) ([]byte, error) { return g.codec.Encode(nil, md.Input(), js) }
	call := func(ctx context.Context, req []byte) ([]byte, error) {
		if len(g.md) > 0 {
			ctx = metadata.NewOutgoingContext(ctx, g.md)
		}
		resp, err := g.conn.Unary(ctx, md, req)
		if err != nil {
			return nil, err
		}
		return resp.Message, nil
	}
	return newChainStep(spec, before, encode, call, g.ref)
}

// ref reads ${STEP.PATH} from the responses of the earlier step k.
func (g *grpcChain) ref(k int, path string) (func(dst, resp []byte) ([]byte, error), error) {
	p, err := dynamic.ParsePath(path)
	if err != nil {
		return nil, err
	}
	out := dynamic.TypeOf(g.methods[k].Output())
	if _, err := dynamic.NewValue(out, nil).Get(p); err != nil {
		return nil, err
	}
	return func(dst, resp []byte) ([]byte, error) {
		v := dynamic.NewValue(out, resp)
		e, err := v.Get(p)
		if err == nil && !e.Exists() {
			if absent, _ := missingElement(v, p); absent {
				err = errors.New("no value in the response")
			}
		}
		if err != nil {
			return nil, err
		}
		return elemJSON(g.codec, dst, e)
	}, nil
}

// newChainStep makes a step of spec: its data split into text and
// references, encoded once when it has none.
func newChainStep(spec chainStepSpec, before []chainStepSpec, encode func([]byte) ([]byte, error),
	call func(context.Context, []byte) ([]byte, error), refs chainRefs) (*chainStep, error) {
	st := &chainStep{name: spec.name, encode: encode, call: call,
		stats: stepStats{ok: load.NewHistogram(), failed: load.NewHistogram(), codes: map[string]int64{}}}
	data := spec.data
	if data == "" {
		data = "{}"
	}
	var err error
	if st.parts, err = parseChainData(data, before, refs); err != nil {
		return nil, err
	}
	if len(st.parts) == 1 && st.parts[0].step < 0 {
		st.wire, err = encode([]byte(data))
	}
	return st, err
}

// parseChainData splits a request's JSON into text and ${STEP.PATH}
// references, each checked against the step's response type.
func parseChainData(data string, before []chainStepSpec, refs chainRefs) ([]chainPart, error) {
	var parts []chainPart
	for {
		i := strings.Index(data, "${")
		if i < 0 {
			return append(parts, chainPart{text: data, step: -1}), nil
		}
		j := strings.IndexByte(data[i:], '}')
		if j < 0 {
			return nil, fmt.Errorf("%q has no closing }", data[i:])
		}
		ref := data[i+2 : i+j]
		part, err := chainRef(ref, before, refs)
		if err != nil {
			return nil, err
		}
		text, rest := data[:i], data[i+j+1:]
		if strings.HasSuffix(text, `"`) && strings.HasPrefix(rest, `"`) {
			text, rest = text[:len(text)-1], rest[1:]
		}
		parts = append(parts, chainPart{text: text, step: -1}, part)
		data = rest
	}
}

func chainRef(ref string, before []chainStepSpec, refs chainRefs) (chainPart, error) {
	name, path, ok := strings.Cut(ref, ".")
	if !ok {
		return chainPart{}, fmt.Errorf("${%s}: want ${STEP.PATH}, such as ${rank.items[0].id}", ref)
	}
	for k, b := range before {
		if b.name != name {
			continue
		}
		pick, err := refs(k, path)
		if err != nil {
			return chainPart{}, fmt.Errorf("${%s}: %w", ref, err)
		}
		return chainPart{step: k, ref: ref, pick: pick}, nil
	}
	return chainPart{}, fmt.Errorf("${%s}: no earlier step is named %q", ref, name)
}

// call makes the steps in turn, as one call of the flow.
func (c *chainTarget) call(ctx context.Context) error {
	rec := load.RecorderFrom(ctx)
	resps := make([][]byte, len(c.steps))
	for i, st := range c.steps {
		req, err := st.request(resps)
		start := time.Now()
		if err == nil {
			resps[i], err = st.call(ctx, req)
		}
		if rec.Measured() {
			st.stats.record(time.Since(start), c.code(err), err != nil)
		}
		if err != nil {
			return fmt.Errorf("step %q: %w", st.name, err)
		}
	}
	return nil
}

// request is the step's request for this call: encoded once, or built
// from the earlier responses.
func (st *chainStep) request(resps [][]byte) ([]byte, error) {
	if st.wire != nil {
		return st.wire, nil
	}
	var js []byte
	for _, p := range st.parts {
		if p.step < 0 {
			js = append(js, p.text...)
			continue
		}
		var err error
		if js, err = p.pick(js, resps[p.step]); err != nil {
			return nil, fmt.Errorf("${%s}: %w", p.ref, err)
		}
	}
	return st.encode(js)
}

func (s *stepStats) record(d time.Duration, code string, failed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if failed {
		s.failed.Record(d)
	} else {
		s.ok.Record(d)
	}
	if _, ok := s.codes[code]; ok || len(s.codes) < 64 {
		s.codes[code]++
	} else {
		s.codes[load.OtherLabel]++
	}
}

// results are the steps' own Results over the flow's measured time.
func (c *chainTarget) results(flow *load.Result) []*load.Result {
	out := make([]*load.Result, len(c.steps))
	for i, st := range c.steps {
		st.stats.mu.Lock()
		r := &load.Result{
			Start: flow.Start, Duration: flow.Duration,
			Corrected: st.stats.ok.Clone(), Service: st.stats.ok.Clone(), Failed: st.stats.failed.Clone(), Extra: load.NewHistogram(),
			Codes: map[string]int64{}, Messages: map[string]int64{},
		}
		for k, v := range st.stats.codes {
			r.Codes[k] = v
		}
		st.stats.mu.Unlock()
		r.Errors = r.Failed.Count()
		r.Calls = r.Corrected.Count() + r.Errors
		out[i] = r
	}
	return out
}
