package ranking

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	rankingv1 "github.com/rpckit/rpckit/examples/ranking/gen/rankingv1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func TestTopKMatchesFullSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, k := range []int{0, 1, 5, 100, 1000} {
		all := make([]scored, 500)
		top := newTopK(k)
		for i := range all {
			all[i] = scored{id: uint32(i), score: float32(rng.IntN(50))} // many ties
			top.push(all[i])
		}
		slices.SortFunc(all, func(a, b scored) int {
			if better(a, b) {
				return -1
			}
			return 1
		})
		want := all[:min(k, len(all))]
		if got := top.sorted(); !slices.Equal(got, want) {
			t.Errorf("k=%d: top %v, want %v", k, got, want)
		}
	}
}

func TestDrawDistinct(t *testing.T) {
	for _, size := range []int{1, 2, 3, 10, 97, 1000, 4096} {
		c := newCatalogue(size, 4, 1)
		for key := uint64(0); key < 50; key++ {
			ids := c.draw(key*0x9e3779b97f4a7c15, size, nil)
			seen := make(map[uint32]bool, size)
			for _, id := range ids {
				if int(id) >= size || seen[id] {
					t.Fatalf("size %d key %d: id %d repeated or out of range", size, key, id)
				}
				seen[id] = true
			}
		}
	}
}

func TestCatalogueDeterministic(t *testing.T) {
	a, b, c := newCatalogue(1000, 8, 7), newCatalogue(1000, 8, 7), newCatalogue(1000, 8, 8)
	if !slices.Equal(a.emb, b.emb) || !slices.Equal(a.items, b.items) {
		t.Error("the same seed gave different catalogues")
	}
	if slices.Equal(a.emb, c.emb) {
		t.Error("different seeds gave the same catalogue")
	}
	for i := range 1000 {
		if n := dot(a.vector(uint32(i)), a.vector(uint32(i))); n < 0.999 || n > 1.001 {
			t.Fatalf("item %d embedding norm² %v, want 1", i, n)
		}
	}
}

// expiringContext reports DeadlineExceeded from its nth Err call on.
type expiringContext struct {
	context.Context
	calls, n int
}

func (c *expiringContext) Err() error {
	c.calls++
	if c.calls >= c.n {
		return context.DeadlineExceeded
	}
	return nil
}

// TestDeadlineMidScoring: the deadline is noticed between candidates, not
// only before scoring starts.
func TestDeadlineMidScoring(t *testing.T) {
	s, err := New(Options{CatalogueSize: 20_000, EmbeddingDim: 8})
	if err != nil {
		t.Fatal(err)
	}
	ctx := &expiringContext{Context: context.Background(), n: 3}
	req := &rankingv1.RankRequest{Context: &rankingv1.RequestContext{UserId: "u"}, CandidateCount: 10_000}
	_, err = s.Rank(ctx, req)
	if status.Code(err) != codes.DeadlineExceeded {
		t.Fatalf("got %v, want DEADLINE_EXCEEDED", err)
	}
	if ctx.calls != 3 {
		t.Errorf("scoring stopped after %d context checks, want 3 (one every %d candidates)", ctx.calls, ctxCheckEvery)
	}
}

// TestModelPrefersAffinity: with all else equal, the title closer to the
// user scores higher.
func TestModelPrefersAffinity(t *testing.T) {
	m := newModel(1)
	var lo, hi [numFeatures]float32
	lo[fAffinity], hi[fAffinity] = -0.5, 0.9
	if m.score(&hi) <= m.score(&lo) {
		t.Errorf("score with affinity 0.9 %v <= with -0.5 %v", m.score(&hi), m.score(&lo))
	}
	if s := m.score(&hi); s <= 0 || s >= 1 {
		t.Errorf("score %v outside (0, 1)", s)
	}
}

func TestSeenTitlesDemoted(t *testing.T) {
	s, _ := New(Options{CatalogueSize: 2000, EmbeddingDim: 8})
	ctx := context.Background()
	rc := &rankingv1.RequestContext{UserId: "watcher", Timestamp: nil}
	s.now = func() time.Time { return time.Date(2026, 3, 1, 20, 0, 0, 0, time.UTC) }
	req := &rankingv1.RankRequest{Context: rc, CandidateCount: 500, Limit: 1}
	before, err := s.Rank(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	top := before.GetItems()[0]
	u := s.users.get("watcher")
	u.mu.Lock()
	u.recent[0], u.recentN = top.GetItemId(), 1
	u.mu.Unlock()
	after, _ := s.Rank(ctx, req)
	if after.GetItems()[0].GetScore() >= top.GetScore() && after.GetItems()[0].GetItemId() == top.GetItemId() {
		t.Errorf("a recently watched title kept its score %v", top.GetScore())
	}
}
