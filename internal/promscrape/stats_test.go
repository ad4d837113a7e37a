package promscrape

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rpckit/rpckit/load"
)

// cpuAt is a sample whose process used cpu seconds, at base+sec.
func cpuAt(base time.Time, sec, cpu, rss float64) scrape {
	return scrape{at: base.Add(seconds(sec)), s: &sample{cpu: value{cpu, true}, rss: value{rss, true},
		gcSum: value{cpu / 100, true}, gcCount: value{cpu * 10, true}}}
}

// TestStatsInterpolates: the CPU at a window's ends is read between the
// scrapes either side; a failed scrape is counted and skipped; the memory
// is the highest scraped within.
func TestStatsInterpolates(t *testing.T) {
	base := time.Now()
	scrapes := []scrape{
		cpuAt(base, 0, 10, 100),
		cpuAt(base, 1, 10.5, 300), // half a core from 0 to 1 s
		{at: base.Add(1500 * time.Millisecond), err: errors.New("HTTP 503")},
		cpuAt(base, 2, 12.5, 200), // two cores from 1 to 2 s
		cpuAt(base, 3, 12.5, 900),
	}
	st := statsOf("u", scrapes, base.Add(500*time.Millisecond), base.Add(1500*time.Millisecond), nil)
	if !st.HasCPU || st.CPU != 1250*time.Millisecond || st.Span != time.Second {
		t.Errorf("cpu %v over %v, want 1.25s over 1s", st.CPU, st.Span)
	}
	if st.Cores() != 1.25 {
		t.Errorf("cores = %g, want 1.25", st.Cores())
	}
	if st.MaxRSS != 300 || !st.HasRSS {
		t.Errorf("max rss = %d, want 300, of the scrape within", st.MaxRSS)
	}
	if st.Scrapes != 2 || st.Failed != 1 || st.FirstError != "HTTP 503" {
		t.Errorf("scrapes %d failed %d (%q), want 2, 1, HTTP 503", st.Scrapes, st.Failed, st.FirstError)
	}
	if !st.HasGC || st.GCs != 13 || st.GCPause != 12500*time.Microsecond {
		t.Errorf("gc %d pauses, %v; want 13, 12.5ms", st.GCs, st.GCPause)
	}
	if st.HasGoroutines {
		t.Error("goroutines found where no scrape had them")
	}
}

// TestStatsLatency: the handling time is the histogram's change over
// the window, all methods first, then by calls.
func TestStatsLatency(t *testing.T) {
	base := time.Now()
	bounds := []float64{0.001, 0.01, math.Inf(1)}
	at := func(sec float64, get, put [3]float64) scrape {
		g := &hist{bounds: bounds, counts: get[:], count: get[2]}
		p := &hist{bounds: bounds, counts: put[:], count: put[2]}
		return scrape{at: base.Add(seconds(sec)), s: &sample{all: g.clone().plus(p),
			methods: map[string]*hist{"a.S/Get": g, "a.S/Put": p}}}
	}
	scrapes := []scrape{
		at(0, [3]float64{50, 50, 50}, [3]float64{0, 0, 0}),
		at(1, [3]float64{50, 50, 50}, [3]float64{0, 0, 0}),
		at(2, [3]float64{130, 150, 150}, [3]float64{0, 10, 20}),
	}
	st := statsOf("u", scrapes, base.Add(time.Second), base.Add(2*time.Second), nil)
	if len(st.Latency) != 3 {
		t.Fatalf("latency = %+v, want all, Get, Put", st.Latency)
	}
	all, get, put := st.Latency[0], st.Latency[1], st.Latency[2]
	if all.Method != "" || all.Calls != 120 || get.Method != "a.S/Get" || get.Calls != 100 || put.Calls != 20 {
		t.Errorf("latency = %+v", st.Latency)
	}
	if want := seconds(0.001 * 50 / 80); get.P50 != want {
		t.Errorf("Get p50 = %v, want %v", get.P50, want)
	}
	if put.P99 != 10*time.Millisecond {
		t.Errorf("Put p99 = %v, want 10ms (the highest finite bound)", put.P99)
	}
}

// TestStatsSeriesAppear: a histogram and a counter that first show in a
// later scrape count from zero at the scrape before, which worked
// without them: no call before their first scrape is lost.
func TestStatsSeriesAppear(t *testing.T) {
	base := time.Now()
	bounds := []float64{0.001, math.Inf(1)}
	h := &hist{bounds: bounds, counts: []float64{80, 100}, count: 100}
	scrapes := []scrape{
		{at: base, s: &sample{}},
		{at: base.Add(time.Second), s: &sample{all: h, methods: map[string]*hist{"a.S/Get": h},
			named: map[string]named{"c": {kind: "counter", value: 100}}}},
	}
	st := statsOf("u", scrapes, base, base.Add(time.Second), []string{"c"})
	if len(st.Latency) == 0 || st.Latency[0].Calls != 100 {
		t.Errorf("latency %+v, want the 100 calls since the first scrape", st.Latency)
	}
	if m := st.Metrics[0]; m.Rate != 100 {
		t.Errorf("counter rate %g, want 100/s from zero", m.Rate)
	}
	half := statsOf("u", scrapes, base.Add(500*time.Millisecond), base.Add(time.Second), nil)
	if half.Latency[0].Calls != 50 {
		t.Errorf("half a second: %d calls, want 50", half.Latency[0].Calls)
	}
}

// TestScraper scrapes a live endpoint, a dead one and one serving
// garbage: every scrape is counted, the failures with their reasons.
func TestScraper(t *testing.T) {
	var n atomic.Int64
	live := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		k := n.Add(1)
		fmt.Fprintf(w, "# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total %d\n# TYPE app_calls_total counter\napp_calls_total %d\n", k, 10*k)
	}))
	defer live.Close()
	garbage := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("# TYPE a gauge\na 1\n<html>\n"))
	}))
	defer garbage.Close()
	big := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("# " + strings.Repeat("x", 2000) + "\n"))
	}))
	defer big.Close()
	dead := httptest.NewServer(http.NotFoundHandler())
	dead.Close()

	sc := Start(t.Context(), Options{URLs: []string{live.URL, dead.URL, garbage.URL, big.URL},
		Metrics: []string{"app_calls_total"}, Interval: 20 * time.Millisecond, MaxBody: 1000})
	from := time.Now()
	time.Sleep(100 * time.Millisecond)
	to := time.Now()
	sc.Stop()
	sts := sc.Stats(from, to, true)
	if st := sts[0]; st.Failed != 0 || st.Scrapes < 3 || !st.HasCPU || st.Metrics[0].Rate <= 0 {
		t.Errorf("live endpoint: %+v, want several scrapes, none failed, CPU and a rate", st)
	}
	for i, want := range []string{"connection refused", "line 3: ", "body over 1000 bytes"} {
		st := sts[i+1]
		if st.Failed != st.Scrapes || st.Scrapes < 2 || !strings.Contains(st.FirstError, want) {
			t.Errorf("%s: %d of %d failed (%q), want all, with %q", st.URL, st.Failed, st.Scrapes, st.FirstError, want)
		}
		if st.HasCPU {
			t.Errorf("%s: CPU reported though no scrape worked", st.URL)
		}
	}
}

func TestCheckURL(t *testing.T) {
	for _, u := range []string{"localhost:9090/metrics", "ftp://h/m", "http:///metrics", "http://%zz"} {
		if CheckURL(u) == nil {
			t.Errorf("CheckURL(%q) passed", u)
		}
	}
	if err := CheckURL("http://127.0.0.1:9090/metrics"); err != nil {
		t.Error(err)
	}
}

// TestScraperBounded: an endpoint that never answers holds neither Start
// nor Stop beyond the timeout, and a cancelled run stops the scraping.
func TestScraperBounded(t *testing.T) {
	release := make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer hang.Close()
	defer close(release)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan []load.ServerStats)
	go func() {
		sc := Start(ctx, Options{URLs: []string{hang.URL}, Timeout: 50 * time.Millisecond, Interval: 10 * time.Millisecond})
		cancel()
		sc.Stop()
		done <- sc.Stats(time.Now(), time.Now(), true)
	}()
	select {
	case st := <-done:
		if s := st[0]; s.Scrapes < 2 || s.Failed != s.Scrapes || !strings.Contains(s.FirstError, "deadline exceeded") {
			t.Errorf("%d scrapes, %d failed (%q): want the first and the last, timed out", s.Scrapes, s.Failed, s.FirstError)
		}
	case <-time.After(10 * time.Second): // a bound on hanging, far above the timeouts
		t.Fatal("the scraper did not stop")
	}
}
