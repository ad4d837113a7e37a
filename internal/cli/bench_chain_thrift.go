package cli

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/rpckit/rpckit/load"
	"github.com/rpckit/rpckit/thrift/client"
	tdynamic "github.com/rpckit/rpckit/thrift/dynamic"
	"github.com/rpckit/rpckit/thrift/idl"
	tloadtarget "github.com/rpckit/rpckit/thrift/loadtarget"
	ttranscode "github.com/rpckit/rpckit/thrift/transcode"
	"github.com/rpckit/rpckit/thrift/wire"
	"github.com/spf13/cobra"
)

// A chained flow with idl: calls Thrift functions, Service.method as
// bench --idl names them, through one pool of connections; ${STEP.PATH}
// reads the success value of an earlier step's reply (PATH as convert
// --get takes it on a Thrift value). A declared exception fails the step,
// counted under the exception's name.

// thriftChain makes a chain's Thrift calls.
type thriftChain struct {
	c       *client.Client
	p       wire.Protocol
	cache   *tdynamic.Cache
	results []*tdynamic.Type // the steps' success types so far; nil for void
}

// chainTarget builds the load target of a chained flow of Thrift calls
// on target.
func (f *thriftBenchFlags) chainTarget(cmd *cobra.Command, target string, specs []chainStepSpec, gf *grpcBenchFlags, bf *benchFlags, opts *load.Options) (*chainTarget, func(), error) {
	file, co, err := f.chainOptions(cmd, target, gf, bf, opts)
	if err != nil {
		return nil, nil, err
	}
	c, err := client.New(co)
	if err != nil {
		return nil, nil, err
	}
	tc := &thriftChain{c: c, p: co.Protocol, cache: &tdynamic.Cache{}}
	ct := &chainTarget{code: tloadtarget.Code}
	for i, spec := range specs {
		st, err := tc.prepareStep(file, spec, specs[:i])
		if err != nil {
			c.Close()
			return nil, nil, fmt.Errorf("step %q: %w", spec.name, err)
		}
		ct.steps = append(ct.steps, st)
	}
	opts.Code = ct.code
	return ct, func() { c.Close() }, nil
}

// chainOptions loads the IDL and makes the client's options, as bench
// --idl does.
func (f *thriftBenchFlags) chainOptions(cmd *cobra.Command, target string, gf *grpcBenchFlags, bf *benchFlags, opts *load.Options) (*idl.File, client.Options, error) {
	if err := f.idl.check(&gf.schema, ""); err != nil {
		return nil, client.Options{}, err
	}
	f.protocol = gf.protocol.name
	file, err := loadIDL(f.idl.file, gf.schema.importPaths)
	if err != nil {
		return nil, client.Options{}, err
	}
	co, err := f.clientOptions(target, &gf.conn)
	co.MaxConns = f.poolSize(cmd.Flags(), gf, bf)
	co.Timeout = thriftTimeout(opts.Timeout)
	return file, co, err
}

// A thriftStep is one step's function and what it needs per call.
type thriftStep struct {
	tc     *thriftChain
	fn     *idl.Function
	args   *tdynamic.Type
	result *tdynamic.Type  // nil for void
	excs   map[int16]error // the declared exceptions by result field
}

func (tc *thriftChain) prepareStep(file *idl.File, spec chainStepSpec, before []chainStepSpec) (*chainStep, error) {
	fn, err := findFunction(file, spec.method)
	if err != nil {
		return nil, err
	}
	if fn.Oneway {
		return nil, fmt.Errorf("%s is oneway; a chain's steps get replies", spec.method)
	}
	ts := &thriftStep{tc: tc, fn: fn, args: tc.cache.Type(argsStructType(fn.Args)), excs: declaredExceptions(fn)}
	if fn.Return != nil && fn.Return.Kind != idl.VoidKind {
		ts.result = tc.cache.Type(fn.Return)
	}
	tc.results = append(tc.results, ts.result)
	return newChainStep(spec, before, ts.encode, ts.call, tc.ref)
}

// declaredExceptions are fn's exceptions as errors, by result field.
func declaredExceptions(fn *idl.Function) map[int16]error {
	excs := map[int16]error{}
	if fn.Throws != nil {
		for _, f := range fn.Throws.Fields {
			excs[f.ID] = &tloadtarget.ExceptionError{Name: f.Type.Name, Field: f.ID}
		}
	}
	return excs
}

// argsStructType is the type of an arguments struct; the IDL model gives
// an argument list no Ref of its own.
func argsStructType(s *idl.Struct) *idl.Type {
	if s.Ref != nil {
		return s.Ref
	}
	return &idl.Type{Kind: idl.StructKind, Name: s.Name, File: s.File, Struct: s}
}

func (ts *thriftStep) encode(js []byte) ([]byte, error) {
	return ttranscode.UnmarshalOptions{Protocol: ts.tc.p}.UnmarshalAppend(nil, ts.args, js)
}

// call makes the step's call and returns its success value.
func (ts *thriftStep) call(ctx context.Context, req []byte) ([]byte, error) {
	reply, err := ts.tc.c.Call(ctx, ts.fn.Name, req, nil)
	if err != nil {
		return nil, err
	}
	return successValue(ts.tc.p, reply, ts.result != nil, ts.excs)
}

// successValue is the success value of a reply's result struct; a
// declared exception is its error in excs.
func successValue(p wire.Protocol, reply []byte, hasResult bool, excs map[int16]error) ([]byte, error) {
	f, ok, err := client.ResultField(p, reply)
	switch {
	case err != nil:
		return nil, fmt.Errorf("reading the result: %w", err)
	case !ok && hasResult:
		return nil, errors.New("the reply has no result")
	case !ok:
		return nil, nil
	case f.ID == 0:
		return client.ResultValue(p, f, reply), nil
	case excs[f.ID] != nil:
		return nil, excs[f.ID]
	}
	return nil, fmt.Errorf("result field %d is no exception of the IDL", f.ID)
}

// ref reads ${STEP.PATH} from the success values of the earlier step k.
func (tc *thriftChain) ref(k int, path string) (func(dst, resp []byte) ([]byte, error), error) {
	r := &thriftRef{t: tc.results[k], p: tc.p}
	if r.t == nil {
		return nil, errors.New("the step returns no value (void)")
	}
	var err error
	if r.path, err = tdynamic.ParsePath(path); err != nil {
		return nil, err
	}
	if r.t.IsStruct() { // the path must name fields of the type
		if _, err := tdynamic.NewValue(r.t, tc.p, tc.p.AppendStop(nil)).Get(r.path); err != nil {
			return nil, err
		}
	}
	return r.pick, nil
}

// A thriftRef is a path into a step's success value.
type thriftRef struct {
	t    *tdynamic.Type
	p    wire.Protocol
	path tdynamic.Path
}

// pick appends the JSON of the value at the path in resp.
func (r *thriftRef) pick(dst, resp []byte) ([]byte, error) {
	e, err := tdynamic.NewValue(r.t, r.p, resp).Get(r.path)
	switch {
	case err != nil:
		return nil, err
	case !e.Exists():
		return nil, errors.New("no value in the response")
	case e.Kind() == idl.BoolKind:
		return strconv.AppendBool(dst, e.Bool()), nil
	}
	return ttranscode.MarshalOptions{Protocol: r.p}.MarshalValue(dst, e.Type(), e.Raw())
}
