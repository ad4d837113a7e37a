package ranking

import "slices"

// scored is a candidate and its score.
type scored struct {
	id    uint32
	score float32
}

// better orders results: higher score first, lower id on ties, so rankings
// are deterministic.
func better(a, b scored) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return a.id < b.id
}

// topK keeps the k best of what is pushed in a min-heap whose root is the
// worst kept item.
type topK struct {
	k    int
	heap []scored
}

func newTopK(k int) *topK { return &topK{k: k, heap: make([]scored, 0, k)} }

func (t *topK) push(s scored) {
	if len(t.heap) < t.k {
		t.heap = append(t.heap, s)
		t.up(len(t.heap) - 1)
		return
	}
	if t.k > 0 && better(s, t.heap[0]) {
		t.heap[0] = s
		t.down(0)
	}
}

func (t *topK) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !better(t.heap[p], t.heap[i]) {
			break
		}
		t.heap[p], t.heap[i] = t.heap[i], t.heap[p]
		i = p
	}
}

func (t *topK) down(i int) {
	n := len(t.heap)
	for {
		worst, l, r := i, 2*i+1, 2*i+2
		if l < n && better(t.heap[worst], t.heap[l]) {
			worst = l
		}
		if r < n && better(t.heap[worst], t.heap[r]) {
			worst = r
		}
		if worst == i {
			return
		}
		t.heap[i], t.heap[worst] = t.heap[worst], t.heap[i]
		i = worst
	}
}

// sorted returns the kept items, best first.
func (t *topK) sorted() []scored {
	out := slices.Clone(t.heap)
	slices.SortFunc(out, func(a, b scored) int {
		if better(a, b) {
			return -1
		}
		if better(b, a) {
			return 1
		}
		return 0
	})
	return out
}
