package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/rpckit/rpckit/load"
	"github.com/rpckit/rpckit/load/report"
)

// A demoRun is one transport's load test: `rpckit bench` in a process of
// its own, so that its CPU time is the client's alone.
type demoRun struct {
	Name string   // what the transport is
	File string   // base name of its JSON result
	Args []string // the bench command's arguments
	Res  *load.Result
}

// demoPlan is the shape of every run: the same ramp for each transport.
type demoPlan struct {
	candidates int
	rate       string
	steps      int
	step       time.Duration
	warmup     time.Duration
}

// newDemoPlan fits a warm-up and the ramp's steps into each run's share
// of total.
func newDemoPlan(rate string, candidates int, total time.Duration, runs int) (demoPlan, error) {
	if candidates < 1 {
		return demoPlan{}, usagef("--candidates must be positive")
	}
	steps, err := rampSteps(rate)
	if err != nil {
		return demoPlan{}, err
	}
	per := total / time.Duration(runs)
	warm := min(max(per/10, 500*time.Millisecond), 3*time.Second)
	step := (per - warm) / time.Duration(steps)
	if step < 500*time.Millisecond {
		return demoPlan{}, usagef("--duration %s is too short for %d runs of %d steps", total, runs, steps)
	}
	return demoPlan{candidates: candidates, rate: rate, steps: steps, step: step.Round(10 * time.Millisecond), warmup: warm}, nil
}

// rampSteps counts the rates of a FROM:TO:+STEP spec.
func rampSteps(spec string) (int, error) {
	p, err := load.ParseRate(spec, time.Second)
	if err != nil {
		return 0, usagef("--rate: %v", err)
	}
	phases := p.Phases()
	if len(phases) == 0 {
		return 0, usagef("--rate %q: no rates", spec)
	}
	return len(phases), nil
}

func (p demoPlan) args() []string {
	return []string{"--rate", p.rate, "--step", p.step.String(), "--warmup", p.warmup.String(),
		"--duration", (p.step * time.Duration(p.steps)).String(), "--timeout", "5s", "--format", "json"}
}

// demoTransports is the number of demoRuns.
const demoTransports = 4

// demoRuns are the Wantedly comparison: gRPC, then the same call over
// Thrift (a pool of connections, one call in flight on each), and as
// REST/JSON over HTTP/1.1 through the gateway, with and without keep-alive.
func demoRuns(d *demoServices, plan demoPlan) []*demoRun {
	req := rankRequest(plan.candidates)
	scrape := []string{"--target-metrics", d.metricsURL}
	rest := []string{"-X", "POST", "--http-header", "Content-Type: application/json", "--body", req, d.httpURL + "/v1/rank"}
	return []*demoRun{
		{Name: "gRPC (HTTP/2, one connection)", File: "grpc.json",
			Args: concat(scrape, []string{"--plaintext", "-d", req, d.grpcAddr, demoService + "/Rank"})},
		{Name: "Thrift (binary, framed)", File: "thrift.json", Args: concat(scrape, d.thrift.benchArgs())},
		{Name: "HTTP/1.1 JSON, keep-alive", File: "http-keepalive.json", Args: concat(scrape, rest)},
		{Name: "HTTP/1.1 JSON, new connections", File: "http-close.json", Args: concat(scrape, []string{"--keepalive=false"}, rest)},
	}
}

// concat is the lists one after the other, in a new slice.
func concat(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// benchChild runs `rpckit bench` in a child process: this executable,
// named rpckit. Its progress goes to progress (if not nil).
func benchChild(ctx context.Context, args []string, progress io.Writer) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, exe)
	cmd.Args = append([]string{"rpckit", "bench"}, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if progress != nil {
		cmd.Stderr = io.MultiWriter(progress, &stderr)
	}
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("rpckit %s: %w: %s", strings.Join(cmd.Args[1:], " "), err, bytes.TrimSpace(stderr.Bytes()))
	}
	return nil
}

// benchArgs are the arguments of r's bench, its JSON result going into
// dir: what the demo prints and what it runs.
func (r *demoRun) benchArgs(plan demoPlan, dir string) []string {
	return append(append(plan.args(), "-o", filepath.Join(dir, r.File)), r.Args...)
}

// benchLine is r's bench as a shell command line.
func (r *demoRun) benchLine(plan demoPlan, dir string) string {
	return "rpckit bench " + shellJoin(r.benchArgs(plan, dir))
}

// run runs r's bench into dir and reads its result.
func (r *demoRun) run(ctx context.Context, plan demoPlan, dir string, progress io.Writer) error {
	args := r.benchArgs(plan, dir)
	if progress != nil {
		args = append([]string{"--progress"}, args...)
	}
	if err := benchChild(ctx, args, progress); err != nil {
		return err
	}
	res, err := readResult(filepath.Join(dir, r.File))
	if err != nil {
		return err
	}
	if len(res.Steps) == 0 {
		res.Steps = []*load.Result{res}
	}
	r.Res = res
	return nil
}

// demoSLO is Tubi's objective for the ranking service.
const demoSLO = "p99<200ms,errors<0.1%"

// capacityText says what rate r sustained under slo.
func capacityText(r *load.Result, slo report.SLO) string {
	rate, step, ok := report.Capacity(r, slo)
	switch {
	case !ok:
		return fmt.Sprintf("< %.0f/s", r.Steps[0].Offered)
	case step == len(r.Steps)-1:
		return fmt.Sprintf(">= %.0f/s (all)", rate)
	}
	return fmt.Sprintf("%.0f/s", rate)
}

// commonStep is the highest ramp step every run passed under slo: the
// load at which the transports are compared side by side. When some run
// failed even the first step, it is the first step, and all is false.
func commonStep(runs []*demoRun, slo report.SLO) (step int, all bool) {
	common := len(runs[0].Res.Steps) - 1
	for _, r := range runs {
		_, step, _ := report.Capacity(r.Res, slo)
		common = min(common, step)
	}
	return max(common, 0), common >= 0
}

// writeDemoTable prints the side-by-side table at the common step, and
// each transport's capacity.
func writeDemoTable(w io.Writer, plan demoPlan, runs []*demoRun, slo report.SLO) error {
	k, all := commonStep(runs, slo)
	which := "the highest rate every transport sustained"
	if !all {
		which = "the first step, which not every transport sustained"
	}
	fmt.Fprintf(w, "Rank (%d candidates) at %.0f calls/s offered, %s:\n\n", plan.candidates, runs[0].Res.Steps[k].Offered, which)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "transport\tp50\tp90\tp99\tp99.9\tmax\treq/s\terrors\tclient CPU/call\tserver CPU/call\tcapacity\t")
	for _, r := range runs {
		s := r.Res.Steps[k]
		h := s.Corrected
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%.0f\t%d\t%s\t%s\t%s\t\n", r.Name,
			fmtMS(h.Percentile(50)), fmtMS(h.Percentile(90)), fmtMS(h.Percentile(99)), fmtMS(h.Percentile(99.9)),
			fmtMS(h.Max()), s.Rate(), s.Errors, fmtMicros(s.CPUPerCall()), fmtMicros(serverCPUPerCall(s)), capacityText(r.Res, slo))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nLatency is measured from each call's intended send time (open loop, no coordinated omission).\n")
	fmt.Fprintf(w, "Capacity: the highest offered rate with %s.\n", strings.ReplaceAll(demoSLO, ",", " and "))
	fmt.Fprintf(w, "CPU per call: the client's is its bench process's; the server's is this process's (the service,\n"+
		"and for HTTP the gateway in front of it, nothing else under load), read by that bench from this\n"+
		"process's /metrics (process_cpu_seconds_total, in the kernel's 10 ms ticks) at the step's ends.\n")
	return nil
}

// serverCPUPerCall is the server's CPU per call over r, as the bench
// scraped it; 0 when it could not.
func serverCPUPerCall(r *load.Result) time.Duration {
	if len(r.Server) == 0 {
		return 0
	}
	return r.Server[0].CPUPerCall(r)
}

func fmtMS(d time.Duration) string {
	return fmt.Sprintf("%.2fms", float64(d)/float64(time.Millisecond))
}

func fmtMicros(d time.Duration) string {
	if d <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.0fµs", float64(d)/float64(time.Microsecond))
}
