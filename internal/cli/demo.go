package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/rpckit/rpckit/examples/ranking"
	"github.com/rpckit/rpckit/load/report"
	"github.com/spf13/cobra"
)

type demoFlags struct {
	duration   time.Duration
	out        string
	rate       string
	candidates int
	model      ranking.Options
}

func newDemoCmd(stdio Stdio) *cobra.Command {
	var f demoFlags
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "A tour: the ranking service over gRPC, Thrift and REST, called and load-tested side by side",
		Long: `Start the ranking service (gRPC, and Thrift in the binary protocol on the
framed transport) and a REST/JSON gateway in front of it on loopback, make one
call of each kind, then load-test Rank four ways with the same rate ramp: over
gRPC, over Thrift, over HTTP/1.1 JSON through the gateway with keep-alive, and
without keep-alive (a new connection per request). Each load test runs as
'rpckit bench' in a process of its own, so its CPU time is the client's; it
scrapes this process's Prometheus metrics (--target-metrics), so the table
gives the server's CPU per call beside the client's.

The table compares the transports at the highest rate all of them sustained,
and gives each one's capacity under the SLO p99 < 200 ms and errors < 0.1%;
below it, each one's calls and errors over the whole ramp, and a warning when
the machine was busy (a load average above its cores before or after the load
tests, or a client that started calls late). Each load test's 'rpckit bench'
command is printed as it starts: run it again to repeat that test.
The results (JSON, one file per transport) and an HTML report with the plots
go to --out, with the Thrift IDL and the encoded Rank arguments the Thrift
load test reads.`,
		Example: `  rpckit demo
  rpckit demo --duration 2m --rate 500:8000:+500 --out ./demo`,
		Args: argsBetween(0, 0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runDemo(cmd, stdio, &f)
		},
	}
	fs := cmd.Flags()
	durationVar(fs, &f.duration, "duration", 60*time.Second, "total time of the four load tests, warm-ups included")
	fs.StringVar(&f.out, "out", filepath.Join(os.TempDir(), "rpckit-demo"), "`directory` for the results, the HTML report and the service log")
	fs.StringVar(&f.rate, "rate", "1000:6000:+1000", "the rate ramp of each load test, calls/s `FROM:TO:+STEP`")
	fs.IntVar(&f.candidates, "candidates", 1000, "candidates each Rank call of the load tests scores")
	fs.IntVar(&f.model.CatalogueSize, "catalogue", 50_000, "titles in the service's synthetic catalogue")
	return cmd
}

func runDemo(cmd *cobra.Command, stdio Stdio, f *demoFlags) error {
	ctx := cmd.Context()
	plan, err := newDemoPlan(f.rate, f.candidates, f.duration, demoTransports)
	if err != nil {
		return err
	}
	slo, err := report.ParseSLO(demoSLO)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(f.out, 0o755); err != nil {
		return err
	}
	logFile, err := os.Create(filepath.Join(f.out, "service.log"))
	if err != nil {
		return err
	}
	defer logFile.Close()
	logger := slog.New(slog.NewJSONHandler(logFile, nil))
	svc, err := startDemoServices(ctx, logger, f.model)
	if err != nil {
		return err
	}
	err = tour(cmd, stdio, f, plan, slo, svc)
	if serr := svc.stop(); err == nil {
		err = serr
	}
	return err
}

// tour is the demo proper, once the services run.
func tour(cmd *cobra.Command, stdio Stdio, f *demoFlags, plan demoPlan, slo report.SLO, svc *demoServices) error {
	ctx := cmd.Context()
	fmt.Fprintf(stdio.Out, "rpckit demo: ranking service on %s (gRPC) and %s (Thrift), gateway on %s (REST/JSON)\n\n",
		svc.grpcAddr, svc.thrift.addr, svc.httpURL)
	caller, err := newDemoCaller(ctx, svc, stdio.Out)
	if err != nil {
		return err
	}
	if err := caller.callAll(ctx, svc.httpURL, svc.thrift.addr); err != nil {
		return err
	}
	if err := svc.thrift.writeFiles(f.out, plan.candidates); err != nil {
		return err
	}
	fmt.Fprintf(stdio.Out, "Load: Rank with %d candidates at %s calls/s in %d steps of %s after a %s warm-up, open loop, per transport:\n",
		plan.candidates, plan.rate, plan.steps, plan.step, plan.warmup)
	runs := demoRuns(svc, plan)
	machine := demoMachine{cores: runtime.NumCPU(), loadStart: loadAverage()}
	if err := runAll(ctx, stdio, runs, plan, f.out, svc); err != nil {
		return err
	}
	machine.loadEnd = loadAverage()
	fmt.Fprintln(stdio.Out)
	if err := writeDemoTable(stdio.Out, plan, runs, slo); err != nil {
		return err
	}
	writeDemoErrors(stdio.Out, runs)
	writeBusyWarning(stdio.Out, busyWarnings(machine, runs))
	path, err := writeDemoHTML(f.out, plan, runs, slo)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdio.Out, "\nResults: %s\nReport:  %s\n", f.out, path)
	return nil
}

// runAll runs each transport's load test in turn, on an idle service,
// printing first the bench command it runs.
func runAll(ctx context.Context, stdio Stdio, runs []*demoRun, plan demoPlan, dir string, svc *demoServices) error {
	var progress io.Writer
	if isTerminal(stdio.Err) {
		progress = stdio.Err
	}
	for _, r := range runs {
		svc.waitIdle(ctx, 15*time.Second)
		fmt.Fprintf(stdio.Out, "  %s: %s\n", r.Name, r.benchLine(plan, dir))
		if err := r.run(ctx, plan, dir, progress); err != nil {
			return err
		}
	}
	return nil
}
