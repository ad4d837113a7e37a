package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rpckit/rpckit/load"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range min(len(gl), len(wl)) {
		if gl[i] != wl[i] {
			t.Fatalf("%s differs at line %d:\n got: %q\nwant: %q", name, i+1, gl[i], wl[i])
		}
	}
	t.Fatalf("%s differs in length: got %d lines, want %d", name, len(gl), len(wl))
}

var t0 = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)

// stepResult is a deterministic step: n calls at rate over 10 s, latencies
// spread from base to 3*base with a tail of 20*base every 250 calls, and
// one error every errEvery calls (none if 0), timed apart from successful
// calls as load does.
func stepResult(start time.Time, rate float64, n int, base time.Duration, errEvery int) *load.Result {
	r := &load.Result{
		Start: start, Duration: 10 * time.Second, Offered: rate,
		Codes: map[string]int64{}, Messages: map[string]int64{},
		Corrected: load.NewHistogram(), Service: load.NewHistogram(), Failed: load.NewHistogram(), Extra: load.NewHistogram(),
		MaxLag: 2 * time.Millisecond, MeanLag: 150 * time.Microsecond,
	}
	for i := range n {
		d := base + time.Duration(i%100)*base/50
		if i%250 == 249 {
			d = 20 * base
		}
		r.Calls++
		if errEvery > 0 && i%errEvery == errEvery-1 {
			r.Errors++
			r.Codes["UNAVAILABLE"]++
			r.Messages["rpc error: code = Unavailable desc = connection refused"]++
			r.Failed.Record(d / 2)
			continue
		}
		r.Codes["OK"]++
		r.Corrected.Record(d)
		r.Service.Record(d * 3 / 4)
	}
	for s := range 10 {
		r.Series = append(r.Series, load.Point{
			At: time.Duration(s) * time.Second, Length: time.Second, Calls: int64(n / 10),
			CPU: time.Duration(n/10) * 20 * time.Microsecond, P50: 2 * base, P90: 3 * base, P99: 20 * base, Max: 20 * base,
		})
	}
	r.CPU = time.Duration(n) * 20 * time.Microsecond
	return r
}

// ramp is a deterministic two-step ramp: the second step breaks down.
func ramp() *load.Result {
	s1 := stepResult(t0, 100, 1000, time.Millisecond, 0)
	s2 := stepResult(t0.Add(10*time.Second), 200, 1500, 8*time.Millisecond, 100)
	s2.NotSent = 500
	total := &load.Result{
		Start: t0, Duration: 20 * time.Second, Offered: 150,
		Codes: map[string]int64{}, Messages: map[string]int64{},
		FirstError: "rpc error: code = Unavailable desc = connection refused",
		Corrected:  load.NewHistogram(), Service: load.NewHistogram(), Failed: load.NewHistogram(), Extra: load.NewHistogram(),
		MaxLag: 2 * time.Millisecond, MeanLag: 150 * time.Microsecond,
		Steps: []*load.Result{s1, s2},
	}
	for _, s := range total.Steps {
		total.Calls += s.Calls
		total.Errors += s.Errors
		total.NotSent += s.NotSent
		total.CPU += s.CPU
		for k, v := range s.Codes {
			total.Codes[k] += v
		}
		for k, v := range s.Messages {
			total.Messages[k] += v
		}
		total.Corrected.Merge(s.Corrected)
		total.Service.Merge(s.Service)
		total.Failed.Merge(s.Failed)
		total.Series = append(total.Series, s.Series...)
	}
	for i := range total.Series {
		total.Series[i].At = time.Duration(i) * time.Second
	}
	return total
}
