package load

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"
)

// latencies returns n pseudo-random durations, long-tailed, from seed.
func latencies(seed uint64, n int) []time.Duration {
	rng := rand.New(rand.NewPCG(seed, seed))
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = time.Duration(rng.ExpFloat64() * float64(3*time.Millisecond))
		if i%97 == 0 {
			out[i] *= 50
		}
	}
	return out
}

func histOf(ds ...[]time.Duration) *Histogram {
	h := NewHistogram()
	for _, d := range ds {
		for _, v := range d {
			h.Record(v)
		}
	}
	return h
}

func TestHistogramMergeExact(t *testing.T) {
	a, b := latencies(1, 20000), latencies(2, 5000)
	merged := histOf(a)
	merged.Merge(histOf(b))
	all := histOf(a, b)
	if !merged.Equal(all) {
		t.Fatal("merge of two histograms differs from one histogram of all values")
	}
	for _, p := range append(StandardPercentiles(), 0, 33.3, 99.9999) {
		if got, want := merged.Percentile(p), all.Percentile(p); got != want {
			t.Errorf("p%v: merged %v, all %v", p, got, want)
		}
	}
	if merged.Count() != 25000 || merged.Mean() != all.Mean() || merged.StdDev() != all.StdDev() {
		t.Errorf("count/mean/stddev differ: %d %v %v vs %v %v", merged.Count(), merged.Mean(), merged.StdDev(), all.Mean(), all.StdDev())
	}
}

func TestHistogramEncodeRoundTrip(t *testing.T) {
	h := histOf(latencies(3, 10000))
	text, err := h.MarshalText()
	if err != nil {
		t.Fatal(err)
	}
	var back Histogram
	if err := back.UnmarshalText(text); err != nil {
		t.Fatal(err)
	}
	if !back.Equal(h) {
		t.Fatal("decoded histogram differs")
	}
	var empty Histogram
	text, err = empty.MarshalText()
	if err != nil {
		t.Fatal(err)
	}
	if err := back.UnmarshalText(text); err != nil || back.Count() != 0 {
		t.Fatalf("empty round trip: count %d, err %v", back.Count(), err)
	}
	if err := back.UnmarshalText([]byte("not base64!")); err == nil {
		t.Fatal("UnmarshalText accepted garbage")
	}
}

func TestHistogramValues(t *testing.T) {
	var h Histogram // the zero value works
	if h.Percentile(50) != 0 || h.Max() != 0 || h.Mean() != 0 || h.Bars() != nil || h.Spectrum(5) != nil {
		t.Fatal("empty histogram reports values")
	}
	for i := 1; i <= 100; i++ {
		h.Record(time.Duration(i) * time.Millisecond)
	}
	h.Record(-time.Second)  // clamps to 0
	h.Record(2 * time.Hour) // clamps to 1 h
	checks := []struct {
		name      string
		got, want time.Duration
	}{
		{"p50", h.Percentile(50), 50 * time.Millisecond},
		{"min", h.Min(), 0},
		{"max", h.Max(), time.Hour},
		{"p99", h.Percentile(99), 100 * time.Millisecond}, // rank 101 of 102
	}
	for _, c := range checks {
		if !within(c.got, c.want, 0.001) {
			t.Errorf("%s = %v, want %v (±0.1%%)", c.name, c.got, c.want)
		}
	}
	if h.Count() != 102 {
		t.Errorf("count = %d, want 102", h.Count())
	}
	buckets, sub := h.Geometry()
	if buckets != 22 || sub != 2048 {
		t.Errorf("geometry = %d, %d; want 22, 2048", buckets, sub)
	}
	sp := h.Spectrum(5)
	if last := sp[len(sp)-1]; last.Quantile != 1 || last.TotalCount != 102 {
		t.Errorf("spectrum ends at %+v", last)
	}
	var total int64
	for _, b := range h.Bars() {
		total += b.Count
	}
	if total != 102 {
		t.Errorf("bars hold %d values, want 102", total)
	}
}

func within(got, want time.Duration, frac float64) bool {
	d := float64(got - want)
	return d <= frac*float64(want)+float64(time.Microsecond) && -d <= frac*float64(want)+float64(time.Microsecond)
}

func TestHistogramRecordAllocs(t *testing.T) {
	h := NewHistogram()
	d := 3 * time.Millisecond
	if n := testing.AllocsPerRun(1000, func() { h.Record(d) }); n != 0 {
		t.Errorf("Record allocates %v times", n)
	}
}

func TestShardRecordAllocs(t *testing.T) {
	s := newShard(2)
	now := time.Now()
	c := sample{phase: 1, intended: now, sent: now.Add(time.Millisecond), done: now.Add(3 * time.Millisecond), code: "OK"}
	s.record(&c) // first record of a phase makes its histograms
	if n := testing.AllocsPerRun(1000, func() {
		s.begin()
		s.record(&c)
	}); n != 0 {
		t.Errorf("record allocates %v times", n)
	}
	fail := c
	fail.failed, fail.code, fail.message = true, "UNAVAILABLE", "connection refused"
	s.record(&fail)
	if n := testing.AllocsPerRun(1000, func() { s.record(&fail) }); n != 0 {
		t.Errorf("record of a failure allocates %v times", n)
	}
}

func TestCountLabelBounded(t *testing.T) {
	m := map[string]int64{}
	for i := range 200 {
		countLabel(m, string(rune('A'+i)), 10)
	}
	if len(m) != 11 || m[OtherLabel] != 190 {
		t.Errorf("labels = %d, other = %d; want 11, 190", len(m), m[OtherLabel])
	}
}

// TestFinishAllocs checks the whole recording path of a call, from the
// target's return to the shard, does not allocate.
func TestFinishAllocs(t *testing.T) {
	opts, err := Options{Pacer: Constant{Rate: 1}, Code: func(error) string { return "UNAVAILABLE" }}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	r := newRun(context.Background(), opts, func(context.Context) error { return nil })
	defer r.cutCalls()
	s := r.shards[0]
	now := time.Now()
	c := sample{phase: 0, intended: now, sent: now, done: now.Add(time.Millisecond)}
	errFixed := errors.New("unavailable")
	r.finish(s, &c, errFixed)
	r.finish(s, &c, nil)
	for _, err := range []error{nil, errFixed} {
		if n := testing.AllocsPerRun(1000, func() {
			s.begin()
			r.finish(s, &c, err)
		}); n != 0 {
			t.Errorf("finish(%v) allocates %v times", err, n)
		}
	}
}
