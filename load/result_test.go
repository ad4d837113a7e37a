package load

import (
	"testing"
	"time"
)

// fixedResult builds a Result from known latencies.
func fixedResult(start time.Time, ds []time.Duration, errs int64) *Result {
	r := newResult()
	r.Start, r.Duration, r.Offered = start, 10*time.Second, 100
	for _, d := range ds {
		r.Corrected.Record(d)
		r.Service.Record(d / 2)
	}
	r.Calls, r.Errors = int64(len(ds)), errs
	r.Codes["OK"] = r.Calls - errs
	if errs > 0 {
		r.Codes["UNAVAILABLE"] = errs
	}
	r.MeanLag, r.MaxLag = time.Millisecond, 5*time.Millisecond
	r.Series = []Point{{Length: time.Second, Calls: r.Calls, P99: r.Corrected.Percentile(99)}}
	return r
}

func TestMergeResults(t *testing.T) {
	t0 := time.Unix(1700000000, 0)
	a, b := latencies(4, 3000), latencies(5, 1000)
	ra := fixedResult(t0, a, 3)
	rb := fixedResult(t0.Add(2*time.Second), b, 1)
	m := Merge(ra, rb)
	all := histOf(a, b)
	if !m.Corrected.Equal(all) {
		t.Fatal("merged corrected histogram is not that of all calls")
	}
	for _, p := range StandardPercentiles() {
		if m.Corrected.Percentile(p) != all.Percentile(p) {
			t.Errorf("p%v = %v, want %v", p, m.Corrected.Percentile(p), all.Percentile(p))
		}
	}
	if m.Calls != 4000 || m.Errors != 4 || m.Codes["OK"] != 3996 || m.Codes["UNAVAILABLE"] != 4 {
		t.Errorf("counts: calls %d errors %d codes %v", m.Calls, m.Errors, m.Codes)
	}
	if !m.Start.Equal(t0) || m.Duration != 12*time.Second || m.Offered != 200 {
		t.Errorf("span %v + %v, offered %v", m.Start, m.Duration, m.Offered)
	}
	if len(m.Series) != 1 || m.Series[0].Calls != 4000 {
		t.Errorf("series %+v", m.Series)
	}
	if ra.Calls != 3000 || ra.Corrected.Count() != 3000 {
		t.Error("Merge changed its input")
	}
	if r := m.Rate(); r < 333 || r > 334 {
		t.Errorf("rate = %v, want 4000/12s", r)
	}
	if got := m.ErrorRate(); got != 0.001 {
		t.Errorf("error rate = %v, want 0.001", got)
	}
}
