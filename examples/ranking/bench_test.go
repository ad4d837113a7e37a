package ranking

import (
	"context"
	"fmt"
	"testing"
	"time"

	rankingv1 "github.com/rpckit/rpckit/examples/ranking/gen/rankingv1"
)

// BenchmarkRank times the model on one goroutine: features, scoring and
// top-10 for 1,000 to 10,000 candidates from the default-size catalogue.
// ns/op should grow linearly; ns/candidate is reported to show it.
func BenchmarkRank(b *testing.B) {
	s, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	var q query
	q.setContext(&rankingv1.RequestContext{UserId: "bench", Country: "FR"}, time.Date(2026, 3, 1, 20, 0, 0, 0, time.UTC))
	s.users.get("bench").snapshot(&q.user)
	ctx := context.Background()
	for n := 1000; n <= 10_000; n += 1000 {
		candidates := s.cat.draw(12345, n, nil)
		b.Run(fmt.Sprintf("candidates=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.ranker.rank(ctx, &q, candidates, defaultLimit); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/candidate")
		})
	}
}

// BenchmarkRankHandler times the whole Rank handler, validation and
// candidate drawing included, for 1,000 candidates.
func BenchmarkRankHandler(b *testing.B) {
	s, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	req := &rankingv1.RankRequest{Context: &rankingv1.RequestContext{UserId: "bench"}, CandidateCount: 1000, Limit: 10}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Rank(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}
