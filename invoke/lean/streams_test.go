package lean

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// The stream table agrees with a map through streams that end in and out
// of order, long-lived ones that collide with later ids, growth, and ids
// never opened (even ones, too).
func TestStreamTable(t *testing.T) {
	var tb streamTable
	want := map[uint32]*stream{}
	r := rand.New(rand.NewPCG(1, 2))
	next := uint32(1)
	var open []*stream
	check := func() {
		t.Helper()
		if tb.len() != len(want) {
			t.Fatalf("len %d, want %d", tb.len(), len(want))
		}
		for id := uint32(0); id < next+8; id++ {
			if got := tb.get(id); got != want[id] {
				t.Fatalf("get(%d) = %v, want %v", id, got, want[id])
			}
		}
		all := tb.all()
		slices.SortFunc(all, func(a, b *stream) int { return int(a.id) - int(b.id) })
		if len(all) != len(want) || !slices.IsSortedFunc(all, func(a, b *stream) int { return int(a.id) - int(b.id) }) {
			t.Fatalf("all: %d streams, want %d", len(all), len(want))
		}
		for _, s := range all {
			if want[s.id] != s {
				t.Fatalf("all has stream %d, not open", s.id)
			}
		}
	}
	for round := range 3000 {
		inFlight := 5 + 300*(round/1000) // grows twice
		for len(open) < inFlight {
			s := &stream{id: next}
			next += 2
			tb.add(s)
			want[s.id] = s
			open = append(open, s)
		}
		// End one: mostly the oldest, sometimes any; stream 1 never.
		i := 0
		if r.IntN(4) == 0 {
			i = r.IntN(len(open))
		}
		if open[i].id == 1 {
			i = len(open) - 1
		}
		s := open[i]
		open = slices.Delete(open, i, i+1)
		tb.remove(s)
		delete(want, s.id)
		if round%97 == 0 {
			check()
		}
	}
	check()
	if tb.get(1) == nil {
		t.Fatal("the long-lived stream 1 is lost")
	}
	for _, s := range open {
		tb.remove(s)
		delete(want, s.id)
	}
	check()
}
