package promscrape

import (
	"bytes"
	"math"
	"testing"
)

// FuzzParse: any body parses or fails with an error, never a panic, and
// what it keeps is consistent: histograms have +Inf last, bounds rising,
// and quantiles within their bounds.
func FuzzParse(f *testing.F) {
	f.Add([]byte(exposition))
	f.Add([]byte("# TYPE x histogram\nx_bucket{le=\"1\"} 2\nx_bucket{le=\"+Inf\"} 1\nx_count 1\nx_sum 1\n"))
	f.Add([]byte("process_cpu_seconds_total NaN\n"))
	f.Add([]byte("garbage{\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		s, err := parse(bytes.NewReader(body), []string{"x", "app_queue"})
		if err != nil {
			return
		}
		hists := []*hist{s.all}
		for _, h := range s.methods {
			hists = append(hists, h)
		}
		for _, n := range s.named {
			hists = append(hists, n.h)
		}
		for _, h := range hists {
			checkHist(t, h)
		}
	})
}

func checkHist(t *testing.T, h *hist) {
	if h == nil {
		return
	}
	n := len(h.bounds)
	if n == 0 || n != len(h.counts) || !math.IsInf(h.bounds[n-1], 1) {
		t.Fatalf("histogram %+v: want matching bounds and counts, +Inf last", h)
	}
	for i := 1; i < n; i++ {
		if !(h.bounds[i] > h.bounds[i-1]) {
			t.Fatalf("histogram bounds %v not rising", h.bounds)
		}
	}
	q := h.quantile(0.5)
	if !math.IsNaN(q) && n >= 2 && (q > h.bounds[n-2] || q < min(0, h.bounds[0])) {
		t.Fatalf("median %g outside the bounds %v", q, h.bounds)
	}
}
