package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/rpckit/rpckit/load"
)

// TestDemoErrors: each transport's line gives its calls and failures over
// the whole run, failures by code, most frequent first.
func TestDemoErrors(t *testing.T) {
	runs := []*demoRun{
		{Name: "gRPC", Res: &load.Result{Calls: 1000, Errors: 580,
			Codes: map[string]int64{"OK": 420, "DEADLINE_EXCEEDED": 570, "UNAVAILABLE": 10}}},
		{Name: "HTTP/1.1 JSON, keep-alive", Res: &load.Result{Calls: 2000, Codes: map[string]int64{"OK": 2000}}},
		{Name: "HTTP/1.1 JSON, new connections", Res: &load.Result{Calls: 3000, Errors: 3, NotSent: 7, CutOff: 2,
			Codes: map[string]int64{"OK": 2997, "HTTP 503": 3}}},
	}
	var out bytes.Buffer
	writeDemoErrors(&out, runs)
	for _, want := range []string{
		"gRPC                            1000 calls, 580 failed (58.0%): DEADLINE_EXCEEDED 570, UNAVAILABLE 10\n",
		"HTTP/1.1 JSON, keep-alive       2000 calls, none failed\n",
		"HTTP/1.1 JSON, new connections  3000 calls, 3 failed (0.1%): HTTP 503 3; 7 not sent (too many in flight); 2 cut off at the end\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no line %q in\n%s", want, out.String())
		}
	}
}

// TestDemoBusyWarnings: a load average above the cores at either end, or
// a client that started calls late, makes a warning; a quiet machine none.
func TestDemoBusyWarnings(t *testing.T) {
	quiet := &load.Result{MaxLag: 2 * time.Millisecond, MeanLag: 50 * time.Microsecond}
	late := &load.Result{MaxLag: 340 * time.Millisecond, MeanLag: 12 * time.Millisecond}
	slightlyLate := &load.Result{MaxLag: 5 * time.Millisecond, MeanLag: 3 * time.Millisecond}
	for _, tc := range []struct {
		name    string
		m       demoMachine
		results []*load.Result
		want    []string
	}{
		{"quiet", demoMachine{cores: 2, loadStart: 0.3, loadEnd: 1.9}, []*load.Result{quiet, quiet}, nil},
		{"load unknown", demoMachine{cores: 2, loadStart: -1, loadEnd: -1}, []*load.Result{quiet}, nil},
		{"busy at the start", demoMachine{cores: 2, loadStart: 5.3, loadEnd: 1},
			[]*load.Result{quiet}, []string{"load average 5.30 before the load tests, above the machine's 2 cores"}},
		{"busy at the end", demoMachine{cores: 4, loadStart: 1, loadEnd: 4.5},
			[]*load.Result{quiet}, []string{"load average 4.50 after them, above the machine's 4 cores"}},
		{"late client", demoMachine{cores: 8, loadStart: 1, loadEnd: 1},
			[]*load.Result{quiet, late}, []string{"the run1 load test started calls up to 340.00ms late (mean 12.00ms;"}},
		{"late on average", demoMachine{cores: 8, loadStart: 1, loadEnd: 1},
			[]*load.Result{slightlyLate}, []string{"the run0 load test started calls up to 5.00ms late (mean 3.00ms;"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var runs []*demoRun
			for i, r := range tc.results {
				runs = append(runs, &demoRun{Name: "run" + string(rune('0'+i)), Res: r})
			}
			got := busyWarnings(tc.m, runs)
			if len(got) != len(tc.want) {
				t.Fatalf("warnings %q, want %d", got, len(tc.want))
			}
			for i, want := range tc.want {
				if !strings.HasPrefix(got[i], want) {
					t.Errorf("warning %q, want it to start %q", got[i], want)
				}
			}
			var out bytes.Buffer
			writeBusyWarning(&out, got)
			if (out.Len() > 0) != (len(got) > 0) || len(got) > 0 && !strings.Contains(out.String(), "Warning: the machine was busy") {
				t.Errorf("printed %q for %d warnings", out.String(), len(got))
			}
		})
	}
}

// TestDemoBenchLines: each printed bench command, read back by bench's own
// flags, has the settings the demo runs it with, and the target.
func TestDemoBenchLines(t *testing.T) {
	plan, err := newDemoPlan("1000:6000:+1000", 1000, 60*time.Second, demoTransports)
	if err != nil {
		t.Fatal(err)
	}
	svc := &demoServices{grpcAddr: "127.0.0.1:50051", httpURL: "http://127.0.0.1:8080",
		thrift: demoThrift{addr: "127.0.0.1:9091", idl: "/tmp/rpckit demo/ranking.thrift", args: "/tmp/rpckit demo/rank.args"}}
	dir := "/tmp/rpckit demo" // a space, to be quoted
	for _, r := range demoRuns(svc, plan) {
		line := r.benchLine(plan, dir)
		args, ok := strings.CutPrefix(line, "rpckit bench ")
		if !ok {
			t.Fatalf("%s: %q is not a bench command", r.Name, line)
		}
		cmd := newBenchCmd(Stdio{})
		if err := cmd.ParseFlags(splitShell(t, args)); err != nil {
			t.Fatalf("%s: %q: %v", r.Name, line, err)
		}
		fs := cmd.Flags()
		for flag, want := range map[string]string{
			"rate": plan.rate, "step": plan.step.String(), "warmup": plan.warmup.String(),
			"duration": (plan.step * time.Duration(plan.steps)).String(), "timeout": "5s",
			"format": "json", "output": dir + "/" + r.File,
		} {
			if got := fs.Lookup(flag).Value.String(); got != want {
				t.Errorf("%s: --%s %s in %q, want %s", r.Name, flag, got, line, want)
			}
		}
		target := fs.Args()
		if !strings.Contains(line, "--keepalive=false") != (fs.Lookup("keepalive").Value.String() == "true") {
			t.Errorf("%s: keep-alive lost in %q", r.Name, line)
		}
		if want := r.Args[len(r.Args)-len(target):]; strings.Join(target, " ") != strings.Join(want, " ") {
			t.Errorf("%s: target %q, want %q", r.Name, target, want)
		}
	}
}

// splitShell splits a line of shellQuote'd words as sh would.
func splitShell(t *testing.T, line string) []string {
	var words []string
	var word strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == '\'':
			quoted, inWord = !quoted, true
		case c == '\\' && !quoted && i+1 < len(line):
			i++
			word.WriteByte(line[i])
			inWord = true
		case c == ' ' && !quoted:
			if inWord {
				words, inWord = append(words, word.String()), false
				word.Reset()
			}
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	if quoted {
		t.Fatalf("unbalanced quotes in %q", line)
	}
	if inWord {
		words = append(words, word.String())
	}
	return words
}
