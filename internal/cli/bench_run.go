package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/rpckit/rpckit/load"
	"github.com/rpckit/rpckit/load/report"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// benchFlows builds the flows of a run: the scenario file's, or the one
// the command line describes; and the overall pacer that flows with a
// weight share.
func benchFlows(cmd *cobra.Command, stdio Stdio, f *benchCmdFlags, args []string) ([]*benchFlow, load.Pacer, error) {
	bf := &f.bench
	if err := bf.checkFormat(); err != nil {
		return nil, nil, err
	}
	if bf.scenario == "" {
		fl, err := buildFlow(cmd, stdio, f, "", args)
		if err != nil {
			return nil, nil, err
		}
		return []*benchFlow{fl}, nil, nil
	}
	if len(args) > 0 {
		return nil, nil, usagef("--scenario names the targets; give no TARGET METHOD or URL")
	}
	sf, err := readScenario(bf.scenario)
	if err != nil {
		return nil, nil, usageError{err}
	}
	if err := sf.applyRunSettings(cmd); err != nil {
		return nil, nil, usageError{err}
	}
	pacer, err := sf.sharedPacer(cmd, bf)
	if err != nil {
		return nil, nil, err
	}
	if bf.hdrLog != "" && len(sf.flows) > 1 {
		return nil, nil, usagef("--hdr-log writes one flow's intervals; the scenario has %d flows", len(sf.flows))
	}
	flows, err := scenarioFlows(cmd, stdio, sf)
	if err != nil {
		return nil, nil, err
	}
	return flows, pacer, nil
}

// applyRunSettings sets the run's outputs given at the top level of the
// file, unless the command line gave them.
func (sf *scenarioFile) applyRunSettings(cmd *cobra.Command) error {
	for _, s := range sf.top {
		switch {
		case s.key == "config" || s.key == "scenario" || s.key == "print-scenario":
			return sf.errAt(s.line, "%q is a flag of the command line only", s.key)
		case runKeys[s.key] && !cmd.Flags().Changed(s.key):
			if err := sf.set(cmd.Flags(), s); err != nil {
				return err
			}
		}
	}
	return (&benchFlags{format: cmd.Flags().Lookup("format").Value.String()}).checkFormat()
}

// sharedPacer is the overall rate of the flows with a weight: --rate, or
// the file's top-level rate, with --step or the top-level step for a ramp.
func (sf *scenarioFile) sharedPacer(cmd *cobra.Command, bf *benchFlags) (load.Pacer, error) {
	rate, step, line := bf.rate, bf.step, 0
	for _, s := range sf.top {
		switch {
		case s.key == "rate" && !cmd.Flags().Changed("rate"):
			rate, line = s.values[len(s.values)-1], s.line
		case s.key == "step" && !cmd.Flags().Changed("step"):
			fs := pflag.NewFlagSet("step", pflag.ContinueOnError)
			durationVar(fs, &step, "step", step, "")
			if err := sf.set(fs, s); err != nil {
				return nil, usageError{err}
			}
		}
	}
	weighted := false
	for _, f := range sf.flows {
		weighted = weighted || f.weight > 0
	}
	switch {
	case rate == "" && weighted:
		return nil, usagef("%s: flows have a weight, and no top-level rate (or --rate) for them to share", sf.path)
	case rate == "":
		return nil, nil
	case !weighted:
		return nil, usagef("%s: the top-level rate (or --rate) is shared by flows with a weight, and no flow has one", sf.path)
	}
	p, err := load.ParseRate(rate, step)
	if err != nil && line > 0 {
		return nil, usageError{sf.errAt(line, "%v", err)}
	}
	if err != nil {
		return nil, usageError{err}
	}
	return p, nil
}

func runBench(cmd *cobra.Command, stdio Stdio, f *benchFlags, flows []*benchFlow, pacer load.Pacer) error {
	var hlog *hdrLogFile
	if f.hdrLog != "" {
		hlog = &hdrLogFile{path: f.hdrLog}
		defer hlog.close()
	}
	if err := f.target.check(); err != nil {
		return err
	}
	showProgress := f.progress || !cmd.Flags().Changed("progress") && isTerminal(stdio.Err)
	sc := newScenario(flows, pacer)
	prog := newProgressLine(stdio.Err, len(flows), showProgress)
	sc.Progress = func(i int, p load.Progress) {
		if hlog != nil {
			hlog.write(p)
		}
		prog.report(i, p)
	}
	scraper := f.target.startScraper(cmd.Context(), sc)
	res, err := load.RunScenario(cmd.Context(), sc)
	if showProgress && isTerminal(stdio.Err) {
		fmt.Fprintln(stdio.Err) // end the line redrawn in place
	}
	if err != nil && (res == nil || !errors.Is(err, context.Canceled)) {
		stopScraper(scraper)
		return err
	}
	addServerStats(scraper, stdio.Err, res.Total)
	if err := finishHdrLog(hlog, res.Total); err != nil {
		return err
	}
	countAddresses(flows, res)
	countInputs(flows, res)
	runs := flowRuns(flows, res)
	shown := append(runs[:len(runs):len(runs)], stepRuns(flows, res)...)
	runID := res.Total.Start.UTC().Format("20060102T150405Z")
	f.labels = map[string]string{"run": runID, "flow": runs[0].Name}
	if err := writeRunReport(stdio, f, shown, res.Total); err != nil {
		return err
	}
	if f.push != "" {
		if err := pushFlows(cmd.Context(), f.push, runID, runs); err != nil {
			return fmt.Errorf("--push: %w", err)
		}
	}
	if f.html != "" {
		if err := writeRunHTML(cmd, stdio, f, shown, res.Total); err != nil {
			return err
		}
	}
	if err != nil {
		return err // interrupted: the partial report is out, and says so
	}
	return flowsOutcome(stdio.Err, runs)
}

// newScenario is the scenario of flows, paced by pacer.
func newScenario(flows []*benchFlow, pacer load.Pacer) load.Scenario {
	sc := load.Scenario{Pacer: pacer}
	for _, fl := range flows {
		sc.Flows = append(sc.Flows, fl.flow)
	}
	return sc
}

// finishHdrLog ends the --hdr-log file, if any, with the run's total.
func finishHdrLog(hlog *hdrLogFile, total *load.Result) error {
	if hlog == nil {
		return nil
	}
	if hlog.finish(total); hlog.err != nil {
		return fmt.Errorf("--hdr-log: %w", hlog.err)
	}
	return nil
}

// countAddresses sets the calls by server address of each flow that
// counts them, and their sum in the total.
func countAddresses(flows []*benchFlow, res *load.ScenarioResult) {
	for i, fl := range flows {
		if fl.addresses != nil {
			res.Flows[i].Addresses = fl.addresses()
		}
	}
	if len(flows) == 1 {
		return
	}
	res.Total.Addresses = nil
	for _, fr := range res.Flows {
		for addr, n := range fr.Addresses {
			if res.Total.Addresses == nil {
				res.Total.Addresses = map[string]int64{}
			}
			res.Total.Addresses[addr] += n
		}
	}
}

// countInputs sets the distinct data rows of each flow that counts them,
// and their sum in the total.
func countInputs(flows []*benchFlow, res *load.ScenarioResult) {
	for i, fl := range flows {
		if fl.inputs != nil {
			res.Flows[i].Inputs = fl.inputs()
		}
	}
	if len(flows) > 1 {
		totalInputs(res)
	}
}

// totalInputs sums the flows' inputs into the total's.
func totalInputs(res *load.ScenarioResult) {
	res.Total.Inputs = 0
	for _, fr := range res.Flows {
		res.Total.Inputs += fr.Inputs
	}
}

// flowRuns pairs each flow's result with its name and SLO.
func flowRuns(flows []*benchFlow, res *load.ScenarioResult) []report.Run {
	runs := make([]report.Run, len(flows))
	for i, fl := range flows {
		runs[i] = report.Run{Name: fl.flow.Name, Result: res.Flows[i].Result, SLO: fl.slo}
	}
	return runs
}

// stepRuns are the steps of chained flows, each named FLOW/STEP: shown
// after the flows, counted in their flow and not again in the total.
func stepRuns(flows []*benchFlow, res *load.ScenarioResult) []report.Run {
	var runs []report.Run
	for i, fl := range flows {
		if fl.chain != nil {
			runs = append(runs, fl.chainRuns(res.Flows[i].Result)...)
		}
	}
	return runs
}

// chainRuns are the runs of a chained flow's steps, named flow/step, out
// of the flow's result.
func (fl *benchFlow) chainRuns(res *load.Result) []report.Run {
	var runs []report.Run
	for k, r := range fl.chain.results(res) {
		runs = append(runs, report.Run{Name: fl.flow.Name + "/" + fl.chain.steps[k].name, Result: r})
	}
	return runs
}

// writeRunReport writes the report of one flow as a single run's, or of
// several with each flow's part and the total.
func writeRunReport(stdio Stdio, f *benchFlags, runs []report.Run, total *load.Result) error {
	if len(runs) == 1 {
		return writeReport(stdio, f, runs[0].Result, runs[0].SLO)
	}
	return writeOutput(stdio.Out, f.output, func(w io.Writer) error {
		switch f.format {
		case "json":
			return report.JSONOptions{}.WriteFlows(w, runs, total)
		case "csv":
			return report.CSVOptions{}.WriteFlows(w, runs, total)
		case "openmetrics":
			return report.MetricsOptions{Labels: map[string]string{"run": f.labels["run"]}, OpenMetrics: true}.WriteFlowsMetrics(w, runs)
		}
		return report.WriteFlowsText(w, runs, total, report.TextOptions{Spectrum: f.spectrum})
	})
}

// writeRunHTML writes the HTML report: one run, or a run per flow (each
// with its own SLO) and their total.
func writeRunHTML(cmd *cobra.Command, stdio Stdio, f *benchFlags, runs []report.Run, total *load.Result) error {
	args := runArgs(cmd, f)
	if len(runs) == 1 {
		run := report.Run{Name: args, Result: runs[0].Result}
		opts := report.HTMLOptions{Title: "rpckit bench " + args, SLO: runs[0].SLO, Settings: benchSettings(f, cmd.Flags())}
		return writeHTMLOutput(stdio.Out, f.html, opts, run)
	}
	opts := report.HTMLOptions{Title: "rpckit bench " + args, Settings: []string{fmt.Sprintf("%d flows from %s", len(runs), f.scenario)}}
	all := append(runs[:len(runs):len(runs)], report.Run{Name: "all flows", Result: total})
	return writeHTMLOutput(stdio.Out, f.html, opts, all...)
}

// runArgs names the run in the HTML report's title: its arguments, or
// its scenario file.
func runArgs(cmd *cobra.Command, f *benchFlags) string {
	if args := strings.Join(cmd.Flags().Args(), " "); args != "" {
		return args
	}
	return "--scenario " + f.scenario
}

// flowsOutcome is how a finished run of flows ends: as benchOutcome for
// one flow; for several, an error naming every flow in which no call
// succeeded, else exit 3 naming every flow that missed its SLO, and
// warnings for failed calls of flows without one.
func flowsOutcome(stderr io.Writer, runs []report.Run) error {
	if len(runs) == 1 {
		return benchOutcome(stderr, runs[0].Result, runs[0].SLO)
	}
	var dead, missed []string
	for _, r := range runs {
		res, slo := r.Result, r.SLO
		switch {
		case res.Successes() == 0:
			dead = append(dead, fmt.Sprintf("flow %q: %v", r.Name, noSuccess(res)))
		case slo != nil && !slo.Met(res):
			missed = append(missed, fmt.Sprintf("flow %q: %v", r.Name, sloMissed(res, slo)))
		case slo == nil && res.Errors > 0:
			printError(stderr, fmt.Errorf("warning: flow %q: %d of %d calls failed (%.2f%%)%s",
				r.Name, res.Errors, res.Calls, 100*res.ErrorRate(), firstError(res)))
		}
	}
	if len(dead) > 0 {
		for _, m := range missed {
			printError(stderr, errors.New(m))
		}
		return errors.New(strings.Join(dead, "; "))
	}
	if len(missed) > 0 {
		return &exitError{code: exitSLOFailed, err: errors.New(strings.Join(missed, "; "))}
	}
	return nil
}

// progressLine prints a run's progress on one line: a flow's as it comes,
// or for several flows each flow's latest, on the first flow's tick.
type progressLine struct {
	w    io.Writer
	show bool
	mu   sync.Mutex
	last []load.Progress
}

func newProgressLine(w io.Writer, flows int, show bool) *progressLine {
	return &progressLine{w: w, show: show, last: make([]load.Progress, flows)}
}

func (l *progressLine) report(i int, p load.Progress) {
	if !l.show {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.last) == 1 {
		printProgress(l.w, p)
		return
	}
	l.last[i] = p
	if i != 0 {
		return
	}
	if p.Warmup {
		printProgress(l.w, p)
		return
	}
	var b strings.Builder
	b.WriteString(p.Elapsed.Round(1e9).String())
	for _, q := range l.last {
		fmt.Fprintf(&b, "  | %d calls %.0f/s p99 %s err %d", q.Calls, q.Rate, q.P99.Round(1e3), q.Errors)
	}
	drawProgress(l.w, b.String())
}
