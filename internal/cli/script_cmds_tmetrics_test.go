package cli_test

import (
	"encoding/json"
	"fmt"
	"math"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	scriptCmds["garbagemetrics"] = cmdGarbageMetrics
	scriptCmds["proccpu"] = cmdProcCPU
	scriptCmds["cpuagrees"] = cmdCPUAgrees
}

// cmdGarbageMetrics starts an HTTP server on loopback for the rest of the
// script whose /metrics is not the Prometheus text format from its third
// line on, and sets NAME to that URL:
//
//	garbagemetrics NAME
func cmdGarbageMetrics(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: garbagemetrics NAME")
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "# TYPE up gauge\nup 1\n<html><body>not metrics</body></html>\n")
	})
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(lis)
	ts.Defer(func() { srv.Close() })
	ts.Setenv(args[0], "http://"+lis.Addr().String()+"/metrics")
}

// cmdProcCPU sets NAME to the CPU time, user and system, in seconds, that
// the one process whose command line holds every ARG has used so far, as
// the kernel counts it (/proc/PID/stat, in clock ticks of 1/100 s):
//
//	proccpu NAME ARG...
func cmdProcCPU(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: proccpu NAME ARG...")
	}
	pid := findProcess(ts, args[1:])
	stat, err := os.ReadFile(filepath.Join("/proc", pid, "stat"))
	ts.Check(err)
	// The fields after the command name, which is in parentheses: state is
	// the first; utime and stime are the 12th and 13th.
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	utime, err := strconv.ParseInt(fields[11], 10, 64)
	ts.Check(err)
	stime, err := strconv.ParseInt(fields[12], 10, 64)
	ts.Check(err)
	ts.Setenv(args[0], strconv.FormatFloat(float64(utime+stime)/100, 'f', 2, 64))
}

// findProcess is the pid of the one process whose command line holds
// every arg.
func findProcess(ts *testscript.TestScript, args []string) string {
	dirs, err := filepath.Glob("/proc/[0-9]*/cmdline")
	ts.Check(err)
	var found []string
	for _, path := range dirs {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		line := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
		if holdsAll(line, args) {
			found = append(found, filepath.Base(filepath.Dir(path)))
		}
	}
	if len(found) != 1 {
		ts.Fatalf("processes with %q in their command line: %v, want one", args, found)
	}
	return found[0]
}

func holdsAll(line, args []string) bool {
	for _, a := range args {
		if !strings.Contains(strings.Join(line, " "), a) {
			return false
		}
	}
	return true
}

// cmdCPUAgrees checks that the server CPU time a JSON bench report gives
// for its first --target-metrics endpoint is within PCT percent of the
// kernel's count over the same run, AFTER less BEFORE seconds (proccpu):
//
//	cpuagrees FILE BEFORE AFTER PCT
func cmdCPUAgrees(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 4 {
		ts.Fatalf("usage: cpuagrees FILE BEFORE AFTER PCT")
	}
	var doc struct {
		Target []struct {
			CPUMS *float64 `json:"cpu_ms"`
		} `json:"target_metrics"`
	}
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[0])), &doc))
	if len(doc.Target) == 0 || doc.Target[0].CPUMS == nil {
		ts.Fatalf("%s: no target_metrics cpu_ms", args[0])
	}
	nums := make([]float64, 3)
	for i, a := range args[1:] {
		v, err := strconv.ParseFloat(a, 64)
		ts.Check(err)
		nums[i] = v
	}
	kernel, reported := (nums[1]-nums[0])*1000, *doc.Target[0].CPUMS
	ts.Logf("server CPU: report %.0f ms, kernel %.0f ms", reported, kernel)
	if kernel <= 0 || math.Abs(reported-kernel) > kernel*nums[2]/100 {
		ts.Fatalf("server CPU: report %.0f ms, kernel %.0f ms: more than %g%% apart", reported, kernel, nums[2])
	}
}
