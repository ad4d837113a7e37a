package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/rpckit/rpckit/load"
	"github.com/rpckit/rpckit/load/report"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// exitSLOFailed is bench's exit code when the run completed but missed its
// SLO.
const exitSLOFailed = 3

// benchFlags bind the load options shared by every kind of target: most
// straight into a load.Options, the pacer from --rate and --step.
type benchFlags struct {
	opts    load.Options
	rate    string
	step    time.Duration
	callers string

	format   string
	output   string
	hdrLog   string
	html     string
	slo      string
	spectrum bool
	progress bool
	config   string
	scenario string
	printSc  bool
	push     string
	labels   map[string]string // of the metrics: the run and the flow
	target   targetFlags

	extraTitle string                  // what the target's own recorded latencies are
	addresses  func() map[string]int64 // calls by address, when the target counts them
}

func (f *benchFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.rate, "rate", "", "open loop: calls/s, or `FROM:TO:+STEP` for a ramp (with --step)")
	fs.StringVar(&f.callers, "callers", "", "closed loop: ramp the calls in flight in `TARGET:LENGTH,...` stages, e.g. 10:30s,50:1m,0:10s")
	durationVar(fs, &f.step, "step", 10*time.Second, "how long each rate of a ramp lasts")
	fs.IntVarP(&f.opts.Concurrency, "concurrency", "c", 0, "closed loop: calls in flight (default 1; with --rate, the cap on calls in flight)")
	fs.Int64VarP(&f.opts.Count, "count", "n", 0, "stop after this many measured calls")
	durationVar(fs, &f.opts.Duration, "duration", 0, "stop after this long, warm-up excluded (default 10s, or the ramp's length)")
	durationVar(fs, &f.opts.Warmup, "warmup", 0, "calls made before measuring starts, not counted")
	durationVar(fs, &f.opts.Timeout, "timeout", 20*time.Second, "deadline of each call")
	fs.IntVar(&f.opts.MaxInFlight, "max-in-flight", 0, "open loop: calls in flight beyond which due calls are counted as not sent (default 10000)")
	fs.StringVar(&f.format, "format", "text", "report format: text, json, csv or openmetrics (the run's metrics and time series)")
	fs.StringVar(&f.push, "push", "", "send the run's metrics to the Prometheus Pushgateway at `URL`, grouped by job rpckit_bench, run and flow")
	fs.StringVarP(&f.output, "output", "o", "", "write the report to `file` instead of stdout")
	fs.StringVar(&f.hdrLog, "hdr-log", "", "write an HdrHistogram interval log (µs; service time tagged 'service') to `file`")
	fs.StringVar(&f.html, "html", "", "also write an HTML report with plots to `file`")
	fs.StringVar(&f.slo, "slo", "", "objectives such as 'p99<200ms,errors<0.1%'; exit 3 when missed")
	fs.BoolVar(&f.spectrum, "spectrum", false, "add the detailed percentile spectrum to the text report")
	fs.BoolVar(&f.progress, "progress", false, "print a progress line each second (default: when stderr is a terminal)")
	fs.StringVar(&f.scenario, "scenario", "", "YAML `file` of several flows run at once, each with its target, data, executor and SLO (see bench --help)")
	fs.BoolVar(&f.printSc, "print-scenario", false, "print the scenario file the command line means, and exit")
	fs.StringVar(&f.config, "config", "", "YAML or JSON `file` of settings keyed by flag name (plus target, method or url; ${VAR} expanded); flags override it")
	f.target.register(fs)
}

func (f *benchFlags) options(cmd *cobra.Command) (load.Options, report.SLO, error) {
	if err := f.check(cmd.Flags()); err != nil {
		return load.Options{}, nil, err
	}
	opts := f.opts
	if f.rate != "" {
		pacer, err := load.ParseRate(f.rate, f.step)
		if err != nil {
			return opts, nil, usageError{err}
		}
		opts.Pacer = pacer
		if f.opts.Concurrency > 0 && f.opts.MaxInFlight == 0 {
			opts.MaxInFlight = f.opts.Concurrency
		}
	}
	if f.callers != "" {
		if f.rate != "" {
			return opts, nil, usagef("--callers ramps a closed loop; --rate makes an open one: give one")
		}
		stages, err := load.ParseStages(f.callers)
		if err != nil {
			return opts, nil, usageError{err}
		}
		opts.Callers = stages
	}
	if err := f.checkFormat(); err != nil {
		return opts, nil, err
	}
	var slo report.SLO
	if f.slo != "" {
		var err error
		if slo, err = report.ParseSLO(f.slo); err != nil {
			return opts, nil, usageError{err}
		}
	}
	return opts, slo, nil
}

func (f *benchFlags) checkFormat() error {
	switch f.format {
	case "text", "json", "csv", "openmetrics":
		return nil
	}
	return usagef("--format %q: want text, json, csv or openmetrics", f.format)
}

// benchLong is bench's help text.
const benchLong = `Load-test a gRPC method (TARGET METHOD), an HTTP endpoint (a http:// or
https:// URL) or, with --idl, a Thrift method (HOST:PORT Service.method).

Closed loop (the default): --concurrency calls in flight, back to back.
Open loop: --rate N calls per second, each with an intended start time that
latency is measured from, so a stalled server cannot hide its stalls
(coordinated omission); --rate 50:400:+50 --step 30s ramps the rate. Latencies
go into HdrHistograms over the whole run; the report opens with the calls,
successes and errors (by code), then gives the ghz-style summary, status codes
and errors, and with --slo the verdicts (and for a ramp the capacity: the
highest rate that met the SLO). Failed calls count in neither Requests/sec nor
the latency distribution: they have their own. For an HTTP URL, -d and --body
both give the request body. A http:// URL goes through rpckit's own HTTP/1.1
client (keep-alive connections, one call each, no redirects followed: a 3xx is
its status); https:// URLs and --http2 go through net/http, which follows up
to 10 redirects.

--format json writes one object, "schema": "rpckit.bench/v2": calls,
successes, errors, error_rate, rps (successful calls/s), offered_rps (a ramp's
mean), codes, messages, first_error, addresses (calls by server address, with
more than one), latency, service and failed (percentiles and an HdrHistogram
each), series, steps; with --slo, slo {objectives, met,
verdicts [{clause, measured, unit, pass}]} on the run and each step; for a
ramp, knee {step, rate_rps, reason} and, with --slo, capacity {found,
rate_rps, step}. --format csv adds successes, slo, capacity_rps and knee_rps.

--target-metrics URL (repeatable; a top-level key of a scenario file) scrapes
the service's Prometheus endpoint (rpckit serve's --admin /metrics) at the
start, at each step's ends and every second, each scrape within 2s and 16 MiB,
and reports beside the client's view, for the run and each step: the server's
CPU (cores, and CPU per call next to the client's), most resident memory and
goroutines, GC pauses, its own handling time (p50/p99 within
grpc_server_handling_seconds' buckets, or a gateway's
rpckit_gateway_request_duration_seconds', all methods and by method) and each
--target-metric NAME (a counter's rate, a gauge's last and max, a histogram's
p50/p99). In JSON it is target_metrics, one object per URL on the run and on
each step: url, scrapes, failed, first_error, span_ms, cpu_ms, cores,
cpu_us_per_call, max_rss_bytes, max_goroutines, gc_pauses, gc_pause_ms,
latency [{method, calls, p50_ms, p99_ms}], metrics [{name, kind, found, rate,
last, max, p50, p99}]; what the endpoint does not expose is left out. With
--format openmetrics and --push they are rpckit_bench_target_* (cpu_seconds,
resident_memory_max_bytes, goroutines_max, gc_pause_seconds, latency_seconds
by method and quantile), labelled target="URL". For
rpckit gateway, give its --admin /metrics (the process) and its listener's
/metrics (--metrics: its request time). A failed scrape is counted, and warned
of on stderr; when every scrape fails the report says so. The exit status
stays the calls' own: the endpoint is observed beside the measurement, not
part of it.

gRPC calls go through --engine lean, the default: rpckit's own HTTP/2 client
(invoke/lean), which spends a fraction of grpc-go's CPU per call, so the load
generator is not what limits the run; or --engine grpc, grpc-go itself, for
fidelity. Both report the same status codes and errors. A dns:///name:port
target, or --target-addr a,b,c, spreads the calls round robin over every
address (lean: at least a connection per address), and the report counts
them by address. --service-config and --breaker (grpc engine) apply a gRPC
service config and a circuit breaker, as for call. --protocol grpc-web or
connect calls through connect-go (--engine connect) over HTTP/1.1, or h2c
with --http2-prior-knowledge, reporting the same status codes and errors;
--engine lean speaks gRPC-Web and Connect's unary calls too, over HTTP/2.

Thrift (--idl FILE, its includes found in -I directories): --transport
framed (default), buffered or header, --protocol binary (default) or
compact, --multiplexed NAME for a multiplexed server; plaintext unless a TLS
flag (--cacert, --cert, --insecure, --servername) is given. The arguments
struct is -d, its JSON (IDL field names as keys), or --body-file, a file
holding it encoded in --protocol (neither: no arguments); it is encoded
once. A Thrift connection carries one call at a time, so calls go over
a pool of --connections connections, by default one per call in flight
(-c; 64 with --rate and no -c). One call, not counted, is made first: a
server down, a transport or protocol mismatch or a method the server does
not know fails at once. Errors are counted by the declared exception's type
name (InvalidRequest) or the application exception's type (UNKNOWN_METHOD,
INTERNAL_ERROR).

--scenario FILE runs several flows at once, each with its own target (TARGET
and METHOD, or a URL), data, executor and SLO; settings are keyed by flag
name, at the top level for every flow or in a flow for itself, and flags on
the command line win over both:

  rate: 400                 # shared by the flows with a weight, 3:1 here
  duration: 30s
  plaintext: true
  flows:
    - name: rank
      target: 127.0.0.1:50051
      method: rpckit.ranking.v1.RankingService/Rank
      data: '{"context": {"userId": "u1"}}'
      weight: 3
      slo: p99<200ms,errors<1%
    - name: page
      url: http://127.0.0.1:8080/v1/page
      weight: 1
    - name: browse          # an executor of its own: rate, concurrency,
      target: 127.0.0.1:50051   # or callers (stages TARGET:LENGTH,...)
      method: rpckit.ranking.v1.RankingService/Rank
      callers: 10:30s,10:1m,0:10s
    - name: rank-thrift     # with idl, a Thrift method, as bench --idl
      target: 127.0.0.1:9091
      idl: ranking.thrift
      method: RankingService.Rank
      data: '{"request": {"context": {"user_id": "u1"}}}'

A flow of steps (steps: instead of method) is a chain of unary calls on its
target, made in turn as one call of the flow; a step's data may use a value
of an earlier step's response as ${STEP.PATH} (PATH as convert --get takes
it; "${...}" as a whole JSON string is replaced by the value's JSON):

    - name: rank-feedback
      target: 127.0.0.1:50051
      steps:
        - {name: rank, method: pkg.Ranking/Rank, data: '{"userId": "u1"}'}
        - name: feedback
          method: pkg.Ranking/Feedback
          data: '{"itemId": "${rank.items[0].id}"}'

Each step's latency is reported on its own, as FLOW/STEP (counted in its
flow, not again in the total). A chain calls gRPC methods through grpc-go;
with idl, it calls Thrift functions (Service.method) and PATH reads the
success value of the step's reply.

Unknown keys and bad values are errors naming the file and line. The report
opens with a line per flow (calls, errors, rate, latency, SLO verdict), then
each flow's report and the total's; JSON ("schema": "rpckit.bench.flows/v1")
has flows and total, CSV a row per flow, HTML a run per flow. --print-scenario
writes the file a command line means.

Exit codes: 0 done (and the SLO met), 1 error or every call failed (with the
first error's text), 2 usage, 3 the SLO was missed (one line on stderr,
whatever the format). Without --slo, any failed call prints a warning on stderr.
With several flows: 1 when a flow had no successful call, 3 when a flow
missed its SLO, each named.`

// benchExamples are bench's help examples.
const benchExamples = `  rpckit bench --plaintext -c 48 --duration 10s 127.0.0.1:50051 rpckit.ranking.v1.RankingService/Rank -d '{"context":{"userId":"u1"},"candidateCount":1000}'
  rpckit bench --plaintext --rate 100:1000:+100 --step 5s --warmup 5s --slo 'p99<200ms,errors<0.1%' 127.0.0.1:50051 pkg.Svc/Method
  rpckit bench -c 16 -n 10000 --keepalive=false -X POST -d '{}' http://127.0.0.1:8080/v1/rank
  rpckit bench --idl ranking.thrift -c 8 --duration 10s 127.0.0.1:9091 RankingService.Rank -d '{"request":{"context":{"user_id":"u1"},"candidate_count":1000}}'
  rpckit bench --scenario flows.yaml --html report.html
  rpckit bench merge a.hlog b.hlog
  rpckit bench compare before.json after.json`

func newBenchCmd(stdio Stdio) *cobra.Command {
	var f benchCmdFlags
	bf := &f.bench
	cmd := &cobra.Command{
		Use:     "bench TARGET METHOD | bench URL | bench --idl FILE HOST:PORT Service.method | bench --scenario FILE",
		Short:   "Load-test a gRPC method, an HTTP endpoint or a Thrift method",
		Long:    benchLong,
		Example: benchExamples,
		Args:    argsBetween(0, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if bf.config != "" {
				var err error
				if args, err = applyConfig(cmd.Flags(), bf.config, args); err != nil {
					return err
				}
			}
			if bf.printSc {
				return printScenario(cmd, stdio.Out, args)
			}
			flows, pacer, err := benchFlows(cmd, stdio, &f, args)
			if err != nil {
				return err
			}
			defer closeFlows(flows)
			return runBench(cmd, stdio, bf, flows, pacer)
		},
	}
	f.register(cmd.Flags())
	cmd.AddCommand(newBenchMergeCmd(stdio), newBenchCompareCmd(stdio), newBenchReportCmd(stdio))
	return cmd
}

func isURL(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}

// benchOutcome is how a finished run ends: an error when no call
// succeeded, exit 3 with the missed objectives when there is an SLO and
// the run missed it, a warning on stderr when calls failed and there is
// no SLO to judge them.
func benchOutcome(stderr io.Writer, res *load.Result, slo report.SLO) error {
	missed := slo != nil && !slo.Met(res)
	if res.Successes() == 0 {
		if missed {
			printError(stderr, sloMissed(res, slo))
		}
		return noSuccess(res)
	}
	if missed {
		return &exitError{code: exitSLOFailed, err: sloMissed(res, slo)}
	}
	if slo == nil && res.Errors > 0 {
		printError(stderr, fmt.Errorf("warning: %d of %d calls failed (%.2f%%)%s",
			res.Errors, res.Calls, 100*res.ErrorRate(), firstError(res)))
	}
	return nil
}

// firstError is "; the first: TEXT", or nothing when the result does not
// know the text (a report of interval logs).
func firstError(res *load.Result) string {
	if res.FirstError == "" {
		return ""
	}
	return "; the first: " + oneLine(res.FirstError)
}

// noSuccess is the error of a run in which no call succeeded.
func noSuccess(res *load.Result) error {
	if res.Calls == 0 {
		return fmt.Errorf("no call completed (%d not sent, %d cut off at the end)", res.NotSent, res.CutOff)
	}
	return fmt.Errorf("all %d calls failed%s", res.Calls, firstError(res))
}

// sloMissed lists the objectives the run missed, in one line.
func sloMissed(res *load.Result, slo report.SLO) error {
	var failed []string
	for _, v := range slo.Check(res) {
		if !v.Pass {
			failed = append(failed, v.String())
		}
	}
	return fmt.Errorf("SLO missed: %s", strings.Join(failed, "; "))
}

// oneLine folds an error text onto one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// printProgress shows p: on a terminal redrawn in place on one line, else
// a line each time.
func printProgress(w io.Writer, p load.Progress) {
	drawProgress(w, progressText(p))
}

// drawProgress shows a progress line: on a terminal in place of the last
// one (carriage return, clear line), else on a line of its own.
func drawProgress(w io.Writer, line string) {
	if isTerminal(w) {
		fmt.Fprint(w, "\r\x1b[2K"+line)
		return
	}
	fmt.Fprintln(w, line)
}

// progressText is the progress line: the step, the offered and achieved
// rates, the time left, and p99 and errors so far.
func progressText(p load.Progress) string {
	if p.Warmup {
		return fmt.Sprintf("warming up %s", p.Elapsed.Round(time.Second))
	}
	var b strings.Builder
	b.WriteString(p.Elapsed.Round(time.Second).String())
	if p.Steps > 1 {
		fmt.Fprintf(&b, "  step %d/%d", p.Step+1, p.Steps)
	}
	if p.Offered > 0 {
		fmt.Fprintf(&b, "  offered %.0f/s", p.Offered)
	}
	fmt.Fprintf(&b, "  achieved %.0f/s", p.Interval.Rate())
	switch {
	case p.RunLeft > 0 && p.Steps > 1:
		fmt.Fprintf(&b, "  left %s of step, %s of run", p.StepLeft.Round(time.Second), p.RunLeft.Round(time.Second))
	case p.RunLeft > 0:
		fmt.Fprintf(&b, "  left %s", p.RunLeft.Round(time.Second))
	}
	fmt.Fprintf(&b, "  %d calls  p99 %s  errors %d  not sent %d",
		p.Calls, p.P99.Round(time.Microsecond), p.Errors, p.NotSent)
	return b.String()
}

// writeReport writes the report in the chosen format, to --output or
// stdout; a file is written whole or not at all.
func writeReport(stdio Stdio, f *benchFlags, res *load.Result, slo report.SLO) error {
	return writeOutput(stdio.Out, f.output, func(w io.Writer) error {
		switch f.format {
		case "openmetrics":
			return report.MetricsOptions{Labels: f.labels, OpenMetrics: true}.WriteMetrics(w, res)
		case "json":
			return report.JSONOptions{SLO: slo}.Write(w, res)
		case "csv":
			return report.CSVOptions{SLO: slo}.WriteSummary(w, res)
		}
		if err := report.WriteText(w, res, report.TextOptions{Spectrum: f.spectrum, ExtraTitle: f.extraTitle}); err != nil {
			return err
		}
		if slo != nil {
			return report.WriteVerdicts(w, res, slo)
		}
		return nil
	})
}

// writeOutput runs write into path (through a temporary file renamed at
// the end, so a failure leaves no partial file; readable by all, as files
// usually are), or into stdout when path is empty or "-".
func writeOutput(stdout io.Writer, path string, write func(io.Writer) error) error {
	if path == "" || path == "-" {
		if stdout == nil {
			return fmt.Errorf("%q: want a file name", path)
		}
		return write(stdout)
	}
	tmp, err := os.CreateTemp(dirOf(path), ".rpckit-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func dirOf(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		return path[:i+1]
	}
	return "."
}

// hdrLogFile writes one interval a second as the run goes.
type hdrLogFile struct {
	path string
	f    *os.File
	w    *report.LogWriter
	err  error
}

func (h *hdrLogFile) write(p load.Progress) {
	if p.Warmup || h.err != nil || p.Corrected == nil {
		return
	}
	if h.w == nil {
		if h.f, h.err = os.Create(h.path); h.err != nil {
			return
		}
		if h.w, h.err = report.NewLogWriter(h.f, p.Start); h.err != nil {
			return
		}
	}
	if h.err = h.w.WriteInterval(p.Interval.At, p.Interval.Length, p.Corrected, p.Service); h.err == nil {
		h.err = h.w.WriteFailed(p.Interval.At, p.Interval.Length, p.Failed)
	}
}

// finish ends the log with the run's measured duration, so that a report
// of the log spans the run's time.
func (h *hdrLogFile) finish(res *load.Result) {
	if h.w != nil && h.err == nil {
		h.err = h.w.WriteDuration(res.Duration)
	}
}

func (h *hdrLogFile) close() {
	if h.f != nil {
		if err := h.f.Close(); err != nil && h.err == nil {
			h.err = err
		}
	}
}
