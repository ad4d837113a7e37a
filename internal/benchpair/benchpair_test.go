package benchpair

import (
	"testing"
)

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{3}, 3},
		{[]float64{5, 1, 3}, 3},
		{[]float64{4, 1, 3, 2}, 2.5},
	} {
		in := append([]float64(nil), c.in...)
		if got := median(in); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.in, got, c.want)
		}
		for i := range in {
			if in[i] != c.in[i] {
				t.Fatalf("median reordered its input: %v", in)
			}
		}
	}
}

// TestCompare runs Compare for a few pairs and checks what it reports and
// how often it calls each side: both run the same number of rounds, and
// each round at least once.
func TestCompare(t *testing.T) {
	var baseCalls, oursCalls int
	sum := 0
	work := func(n int) {
		for i := range n {
			sum += i
		}
	}
	r := testing.Benchmark(func(b *testing.B) {
		baseCalls, oursCalls = 0, 0
		Compare(b, func() { baseCalls++; work(20000) }, func() { oursCalls++; work(1000) })
	})
	for _, m := range []string{"base-ns/op", "x"} {
		if v, ok := r.Extra[m]; !ok || v <= 0 {
			t.Errorf("metric %s = %v, %v; want a positive value", m, v, ok)
		}
	}
	if r.Extra["ns/op"] <= 0 {
		t.Errorf("ns/op = %v, want a positive value", r.Extra["ns/op"])
	}
	if baseCalls < r.N || oursCalls < r.N {
		t.Errorf("%d pairs of rounds but %d calls of base and %d of ours", r.N, baseCalls, oursCalls)
	}
}
