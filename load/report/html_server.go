package report

import (
	"fmt"
	"strconv"

	"github.com/rpckit/rpckit/load"
)

// A serverTable is what one endpoint reported over a run, in the HTML
// report: a row for the run, then one per step.
type serverTable struct {
	runHead
	URL    string
	Failed string // when every scrape failed: the first error
	Rows   []serverRow
}

type serverRow struct {
	Label string
	serverCells
}

// serverCells are the figures of an endpoint over a span, "-" where it
// reported none: CPU in cores and per call (the server's and the
// client's, µs), memory, goroutines, GC pauses, handling p50 and p99 (ms)
// and the scrapes that worked of those made.
type serverCells struct {
	Cores, PerCall, ClientPerCall, RSS, Goroutines, GC, P50, P99, Scrapes string
}

func serverCellsOf(s load.ServerStats, r *load.Result) serverCells {
	c := serverCells{"-", "-", fmtMicros(r.CPUPerCall()), "-", "-", "-", "-", "-",
		fmt.Sprintf("%d/%d", s.Scrapes-s.Failed, s.Scrapes)}
	if s.HasCPU {
		c.Cores, c.PerCall = fmtFloat(s.Cores(), 2), fmtMicros(s.CPUPerCall(r))
	}
	if s.HasRSS {
		c.RSS = fmtBytes(s.MaxRSS)
	}
	if s.HasGoroutines {
		c.Goroutines = strconv.FormatInt(s.MaxGoroutines, 10)
	}
	if s.HasGC {
		c.GC = strconv.FormatInt(s.GCs, 10)
	}
	if len(s.Latency) > 0 {
		c.P50, c.P99 = fmtMS(s.Latency[0].P50), fmtMS(s.Latency[0].P99)
	}
	return c
}

// serverTables are the tables of every run's scraped endpoints.
func serverTables(runs []Run) []serverTable {
	var tables []serverTable
	for i, run := range runs {
		for k, s := range run.Result.Server {
			t := serverTable{runHead: runHead{Name: run.Name, Class: "c" + strconv.Itoa(i%colours)}, URL: s.URL}
			if s.Scrapes > 0 && s.Failed == s.Scrapes {
				t.Failed = s.FirstError
			}
			t.Rows = append(t.Rows, serverRow{"run", serverCellsOf(s, run.Result)})
			t.Rows = append(t.Rows, stepServerRows(run.Result.Steps, k)...)
			tables = append(tables, t)
		}
	}
	return tables
}

// stepServerRows are endpoint k's rows of the steps.
func stepServerRows(steps []*load.Result, k int) []serverRow {
	var rows []serverRow
	for i, st := range steps {
		if k < len(st.Server) {
			rows = append(rows, serverRow{"step " + strconv.Itoa(i+1), serverCellsOf(st.Server[k], st)})
		}
	}
	return rows
}
