package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/rpckit/rpckit/load"
)

// writeServers writes what each scraped endpoint reported over r, beside
// the client's view: CPU (cores and per call, next to the client's), memory,
// goroutines, GC pauses, the service's own handling time and the metrics
// asked for by name.
func writeServers(w io.Writer, r *load.Result) {
	for _, s := range r.Server {
		fmt.Fprintf(w, "\nServer %s (%s):\n", s.URL, scrapesText(s))
		if s.Scrapes > 0 && s.Failed == s.Scrapes {
			fmt.Fprintf(w, "  every scrape failed, so there are no server figures\n")
			continue
		}
		writeServer(w, s, r)
	}
}

// scrapesText is "N scrapes, M failed: first error".
func scrapesText(s load.ServerStats) string {
	t := fmt.Sprintf("%d scrapes, %d failed", s.Scrapes, s.Failed)
	if s.Failed > 0 {
		t += ": " + s.FirstError
	}
	return t
}

func writeServer(w io.Writer, s load.ServerStats, r *load.Result) {
	row := func(k, v string) { fmt.Fprintf(w, "  %-15s %s\n", k+":", v) }
	if s.HasCPU {
		row("CPU", cpuText(s, r))
	}
	if s.HasRSS {
		row("Memory", fmtBytes(s.MaxRSS)+" resident at most")
	}
	if s.HasGoroutines {
		row("Goroutines", strconv.FormatInt(s.MaxGoroutines, 10)+" at most")
	}
	if s.HasGC {
		row("GC", fmt.Sprintf("%d pauses, %s in all", s.GCs, fmtUnit(s.GCPause)))
	}
	for _, l := range handlingRows(s.Latency) {
		row("Handling", latencyText(l))
	}
	for _, m := range s.Metrics {
		row(m.Name, metricText(m))
	}
}

// cpuText is the server's cores and CPU per call, with the client's.
func cpuText(s load.ServerStats, r *load.Result) string {
	t := fmtFloat(s.Cores(), 2) + " cores"
	if r.Calls > 0 {
		t += ", " + fmtUnit(s.CPUPerCall(r)) + " per call"
		if r.CPU > 0 {
			t += " (client " + fmtUnit(r.CPUPerCall()) + ")"
		}
	}
	return t
}

// handlingRows are the latencies to print: all methods, then each method,
// or just the method when it is the only one.
func handlingRows(l []load.ServerLatency) []load.ServerLatency {
	if len(l) == 2 && l[0].Calls == l[1].Calls {
		return l[1:]
	}
	return l
}

func latencyText(l load.ServerLatency) string {
	name := "all methods"
	if l.Method != "" {
		name = l.Method
	}
	return fmt.Sprintf("p50 %s, p99 %s over %d calls, %s", fmtUnit(l.P50), fmtUnit(l.P99), l.Calls, name)
}

// metricText is a named metric's figures for its kind.
func metricText(m load.ServerMetric) string {
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	switch {
	case !m.Found:
		return "not reported"
	case m.Kind == "histogram":
		return fmt.Sprintf("histogram, p50 %s, p99 %s, %s/s", g(m.P50), g(m.P99), fmtFloat(m.Rate, 2))
	case m.Kind == "counter" || m.Kind == "summary":
		return fmt.Sprintf("%s, %s/s", m.Kind, fmtFloat(m.Rate, 2))
	}
	return fmt.Sprintf("%s, last %s, max %s", m.Kind, g(m.Last), g(m.Max))
}

// fmtBytes is n in the largest binary unit that keeps it at or above 1.
func fmtBytes(n int64) string {
	v, units := float64(n), []string{"B", "KiB", "MiB", "GiB", "TiB"}
	i := 0
	for v >= 1024 && i < len(units)-1 {
		v, i = v/1024, i+1
	}
	return fmtFloat(v, 1) + " " + units[i]
}

// writeServerSteps writes, per endpoint, a row per step of what it
// reported: cores, CPU per call (the server's and the client's, µs),
// memory, goroutines, GC pauses and the handling time.
func writeServerSteps(w io.Writer, steps []*load.Result) {
	if len(steps) == 0 || len(steps[0].Server) == 0 {
		return
	}
	for i, s := range steps[0].Server {
		fmt.Fprintf(w, "\nServer per step, %s (CPU per call in µs, latency in ms):\n", s.URL)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "  step\tcores\tcpu/call\tclient cpu/call\tmax rss\tgoroutines\tgc pauses\tp50\tp99\tscrapes\t\n")
		for k, st := range steps {
			if i < len(st.Server) {
				fmt.Fprintf(tw, "  %d\t%s\t\n", k+1, serverStepRow(st.Server[i], st))
			}
		}
		tw.Flush()
	}
}

// serverStepRow is a step's cells, tab-separated.
func serverStepRow(s load.ServerStats, r *load.Result) string {
	c := serverCellsOf(s, r)
	return strings.Join([]string{c.Cores, c.PerCall, c.ClientPerCall, c.RSS, c.Goroutines, c.GC, c.P50, c.P99, c.Scrapes}, "\t")
}

func fmtMicros(d time.Duration) string {
	return fmtFloat(float64(d)/float64(time.Microsecond), 1)
}
