package cli

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rpckit/rpckit/load"
)

// A client that starts calls later than their intended times by more than
// these is too busy to measure the service: the lag is in every latency.
const (
	demoMaxLag  = 20 * time.Millisecond
	demoMeanLag = time.Millisecond
)

// demoMachine is what the demo knows of the machine it ran on: its cores
// and the 1-minute load average before the first load test and after the
// last (negative when unknown).
type demoMachine struct {
	cores              int
	loadStart, loadEnd float64
}

// loadAverage is the 1-minute load average of /proc/loadavg, or -1 where
// there is none.
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	first, _, _ := strings.Cut(string(b), " ")
	v, err := strconv.ParseFloat(first, 64)
	if err != nil {
		return -1
	}
	return v
}

// writeDemoErrors prints, for each transport, its calls and failures over
// all the steps of its run, failures by code.
func writeDemoErrors(w io.Writer, runs []*demoRun) {
	fmt.Fprintln(w, "\nErrors over all steps:")
	width := 0
	for _, r := range runs {
		width = max(width, len(r.Name))
	}
	for _, r := range runs {
		fmt.Fprintf(w, "  %-*s  %s\n", width, r.Name, errorsText(r.Res))
	}
}

// errorsText is "N calls, none failed" or "N calls, F failed (P%): CODE
// n, ...", with calls not sent or cut off at the end when there were any.
func errorsText(r *load.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d calls, ", r.Calls)
	if r.Errors == 0 {
		b.WriteString("none failed")
	} else {
		fmt.Fprintf(&b, "%d failed (%s)", r.Errors, percent(r.Errors, r.Calls))
		if codes := failedCodes(r.Codes); codes != "" {
			b.WriteString(": " + codes)
		}
	}
	if r.NotSent > 0 {
		fmt.Fprintf(&b, "; %d not sent (too many in flight)", r.NotSent)
	}
	if r.CutOff > 0 {
		fmt.Fprintf(&b, "; %d cut off at the end", r.CutOff)
	}
	return b.String()
}

func percent(n, of int64) string {
	if of == 0 {
		return "-"
	}
	return strconv.FormatFloat(100*float64(n)/float64(of), 'f', 1, 64) + "%"
}

// failedCodes lists the codes other than OK, most frequent first.
func failedCodes(codes map[string]int64) string {
	var keys []string
	for k, n := range codes {
		if k != "OK" && n > 0 {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b string) int {
		return cmp.Or(cmp.Compare(codes[b], codes[a]), cmp.Compare(a, b))
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, codes[k])
	}
	return strings.Join(parts, ", ")
}

// busyWarnings are the reasons to distrust the figures: a load average
// above the cores at the start or the end, and load tests whose client
// started calls late.
func busyWarnings(m demoMachine, runs []*demoRun) []string {
	var out []string
	for _, at := range []struct {
		when string
		load float64
	}{{"before the load tests", m.loadStart}, {"after them", m.loadEnd}} {
		if m.cores > 0 && at.load > float64(m.cores) {
			out = append(out, fmt.Sprintf("load average %.2f %s, above the machine's %d cores", at.load, at.when, m.cores))
		}
	}
	for _, r := range runs {
		if r.Res.MaxLag > demoMaxLag || r.Res.MeanLag > demoMeanLag {
			out = append(out, fmt.Sprintf("the %s load test started calls up to %s late (mean %s; over %s or a mean over %s, the client's delays are in its latencies)",
				r.Name, fmtMS(r.Res.MaxLag), fmtMS(r.Res.MeanLag), demoMaxLag, demoMeanLag))
		}
	}
	return out
}

// writeBusyWarning prints the warnings, if any.
func writeBusyWarning(w io.Writer, warnings []string) {
	if len(warnings) == 0 {
		return
	}
	fmt.Fprintln(w, "\nWarning: the machine was busy, so these figures may say more about it than about the transports:")
	for _, s := range warnings {
		fmt.Fprintf(w, "  - %s\n", s)
	}
}
