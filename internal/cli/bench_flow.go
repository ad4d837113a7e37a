package cli

import (
	"fmt"
	"path"
	"strings"

	"github.com/rpckit/rpckit/load"
	"github.com/rpckit/rpckit/load/report"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// benchCmdFlags are every flag of bench that describes a flow: the load
// settings and the target's.
type benchCmdFlags struct {
	bench  benchFlags
	grpc   grpcBenchFlags
	http   httpBenchFlags
	thrift thriftBenchFlags
	chain  []chainStepSpec // a scenario's chained flow
}

func (f *benchCmdFlags) register(fs *pflag.FlagSet) {
	f.bench.register(fs)
	f.grpc.register(fs)
	f.http.register(fs)
	f.thrift.register(fs)
}

// A benchFlow is one flow of a bench run, ready to run.
type benchFlow struct {
	flow       load.Flow
	slo        report.SLO
	extraTitle string
	close      func()
	addresses  func() map[string]int64 // calls by address, when the target counts them
	inputs     func() int64            // distinct data rows used; nil without a data file
	chain      *chainTarget            // a chained flow's steps
}

// buildFlow makes the flow that cmd's flags and args (TARGET METHOD, or a
// URL) describe: its load options, SLO and target. An empty name is the
// default, flowName's.
func buildFlow(cmd *cobra.Command, stdio Stdio, f *benchCmdFlags, name string, args []string) (*benchFlow, error) {
	if len(f.chain) > 0 {
		return buildChainFlow(cmd, f, name, args[0])
	}
	if len(args) > 0 {
		if err := f.thrift.check(cmd.Flags(), &f.grpc, args[0]); err != nil {
			return nil, err
		}
	}
	if !(len(args) == 1 && isURL(args[0]) || len(args) == 2 && !isURL(args[0])) {
		return nil, usagef("want TARGET METHOD for gRPC or a URL for HTTP, got %q", args)
	}
	if name == "" {
		name = flowName(args)
	}
	opts, slo, err := f.bench.options(cmd)
	if err != nil {
		return nil, err
	}
	var target load.Target
	var cleanup func()
	var inputs func() int64
	if f.thrift.idl.file != "" {
		target, cleanup, err = f.thrift.target(cmd, stdio, args[0], args[1], &f.grpc, &f.bench, &opts)
	} else if isURL(args[0]) {
		if f.grpc.dataFile != "" {
			return nil, usagef("--data-file gives gRPC requests; for a URL, give --body")
		}
		if err := f.http.takeData(cmd.Flags(), f.grpc.data); err != nil {
			return nil, err
		}
		target, opts.Code, cleanup, err = f.http.target(cmd, args[0], &f.bench)
	} else {
		if err := f.grpc.check(cmd.Flags()); err != nil {
			return nil, err
		}
		target, cleanup, inputs, err = f.grpc.target(cmd, stdio, args[0], args[1], &f.bench, &opts)
	}
	if err != nil {
		return nil, err
	}
	bf := &benchFlow{
		flow: load.Flow{Name: name, Target: target, Options: opts},
		slo:  slo, extraTitle: f.bench.extraTitle, close: cleanup,
		addresses: f.bench.addresses, inputs: inputs,
	}
	return bf, nil
}

// buildChainFlow makes a chained flow: its steps' calls on target.
func buildChainFlow(cmd *cobra.Command, f *benchCmdFlags, name, target string) (*benchFlow, error) {
	opts, slo, err := f.bench.options(cmd)
	if err != nil {
		return nil, err
	}
	if f.grpc.data != "" || f.grpc.dataFile != "" {
		return nil, usagef("a flow of steps takes its requests from its steps' data")
	}
	var ct *chainTarget
	var cleanup func()
	if f.thrift.idl.file != "" {
		ct, cleanup, err = f.thrift.chainTarget(cmd, target, f.chain, &f.grpc, &f.bench, &opts)
	} else {
		ct, cleanup, err = f.grpc.chainTarget(cmd, target, f.chain, &opts)
	}
	if err != nil {
		return nil, err
	}
	return &benchFlow{flow: load.Flow{Name: name, Target: ct.call, Options: opts}, slo: slo, close: cleanup, chain: ct}, nil
}

// flowName is a flow's default name: the method's name, or the URL's last
// path element (its host when it has none).
func flowName(args []string) string {
	if len(args) == 2 {
		return args[1][strings.LastIndexAny(args[1], "/.")+1:]
	}
	return urlName(args[0])
}

// urlName names a flow by its URL: the last element of the path, or the
// host when the path is empty.
func urlName(rawURL string) string {
	u := strings.TrimPrefix(strings.TrimPrefix(rawURL, "http://"), "https://")
	host, p, _ := strings.Cut(u, "/")
	p, _, _ = strings.Cut(p, "?")
	if b := path.Base("/" + p); b != "/" {
		return b
	}
	return host
}

// scenarioFlows builds the flows of a scenario file: for each, a fresh set
// of bench flags takes the command line's flags, the flow's settings and
// the file's top-level ones, in that order of precedence. Every flow's
// settings are checked before any target is dialled.
func scenarioFlows(cmd *cobra.Command, stdio Stdio, sf *scenarioFile) ([]*benchFlow, error) {
	cmds := make([]*flowCmd, len(sf.flows))
	names := map[string]bool{}
	for i, spec := range sf.flows {
		if spec.name == "" {
			spec.name = flowName(spec.args())
		}
		if names[spec.name] {
			return nil, usageError{sf.errAt(spec.line, "two flows are named %q; give each its own name", spec.name)}
		}
		names[spec.name] = true
		fc, err := newFlowCmd(cmd, sf, spec)
		if err != nil {
			return nil, usageError{err}
		}
		cmds[i] = fc
	}
	var flows []*benchFlow
	for _, fc := range cmds {
		f, err := buildFlow(fc.cmd, stdio, &fc.flags, fc.spec.name, fc.spec.args())
		if err != nil {
			return closeFlows(flows), fmt.Errorf("flow %q: %w", fc.spec.name, err)
		}
		f.flow.Weight = fc.spec.weight
		flows = append(flows, f)
	}
	return flows, nil
}

// closeFlows closes the flows built so far; it returns nil.
func closeFlows(flows []*benchFlow) []*benchFlow {
	for _, f := range flows {
		f.close()
	}
	return nil
}

func (f flowSpec) args() []string {
	if len(f.steps) > 0 {
		return []string{f.target, f.steps[0].method}
	}
	if f.url != "" {
		return []string{f.url}
	}
	return []string{f.target, f.method}
}

// A flowCmd is a flow's own command: its flags set from the file and the
// command line.
type flowCmd struct {
	cmd   *cobra.Command
	flags benchCmdFlags
	spec  flowSpec
}

func newFlowCmd(cmd *cobra.Command, sf *scenarioFile, spec flowSpec) (*flowCmd, error) {
	fc := &flowCmd{cmd: &cobra.Command{Use: spec.name}, spec: spec}
	fc.cmd.SetContext(cmd.Context())
	fc.cmd.SetIn(cmd.InOrStdin())
	fc.flags.register(fc.cmd.Flags())
	fc.flags.chain = spec.steps
	fs := fc.cmd.Flags()
	fromCmd, err := copyFlowFlags(cmd.Flags(), fs)
	if err != nil {
		return nil, err
	}
	for _, s := range spec.settings {
		if !fromCmd[s.key] {
			if err := sf.set(fs, s); err != nil {
				return nil, err
			}
		}
	}
	for _, s := range sf.top {
		if !fs.Changed(s.key) && s.key != "rate" && !runKeys[s.key] {
			if err := sf.set(fs, s); err != nil {
				return nil, err
			}
		}
	}
	if spec.weight > 0 && fc.flags.bench.rate != "" {
		return nil, sf.errAt(spec.line, "flow %q has a weight: it shares the top-level rate and takes no rate of its own", spec.name)
	}
	if spec.weight > 0 && fc.flags.grpc.dataOrder == orderPerCaller {
		return nil, sf.errAt(spec.line, "flow %q has a weight, an open loop: --data-order per-caller needs a closed loop's callers", spec.name)
	}
	if _, _, err := fc.flags.bench.options(fc.cmd); err != nil {
		return nil, fmt.Errorf("flow %q: %w", spec.name, err)
	}
	return fc, nil
}

// copyFlowFlags sets in dst the flow flags set on the command line, and
// returns their names. The overall rate and the run's outputs stay out.
func copyFlowFlags(src, dst *pflag.FlagSet) (map[string]bool, error) {
	set := map[string]bool{}
	var err error
	src.Visit(func(fl *pflag.Flag) {
		if err != nil || runKeys[fl.Name] || fl.Name == "rate" || dst.Lookup(fl.Name) == nil {
			return
		}
		set[fl.Name] = true
		if sv, ok := fl.Value.(pflag.SliceValue); ok {
			if dv, ok := dst.Lookup(fl.Name).Value.(pflag.SliceValue); ok {
				err = dv.Replace(sv.GetSlice())
				dst.Lookup(fl.Name).Changed = true
				return
			}
		}
		err = dst.Set(fl.Name, fl.Value.String())
	})
	return set, err
}

// set applies a setting of the file to a flow's flags.
func (sf *scenarioFile) set(fs *pflag.FlagSet, s scenarioSetting) error {
	if fs.Lookup(s.key) == nil {
		return sf.errAt(s.line, "unknown setting %q (settings are bench flag names)", s.key)
	}
	for _, v := range s.values {
		if err := fs.Set(s.key, v); err != nil {
			return sf.errAt(s.line, "%s: %v", s.key, err)
		}
	}
	return nil
}
