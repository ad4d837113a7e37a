// Package benchpair measures how many times faster one piece of code is
// than a baseline, for benchmarks whose targets are such ratios.
//
// Timing the two in separate benchmarks, seconds apart, lets any change in
// the machine's speed between them (other work, frequency, the state of the
// heap) land on one side of the ratio only. Compare runs them instead in
// alternating rounds of a few milliseconds, so that such changes reach both
// alike, and reports the median of the rounds' ratios.
package benchpair

import (
	"runtime"
	"slices"
	"testing"
	"time"
)

// Round is how long each side runs per round.
const Round = 20 * time.Millisecond

// Compare runs base and ours in alternating rounds of about Round each, one
// pair of rounds per iteration of b.Loop (so -benchtime 30x runs 30 pairs),
// and reports the medians of the rounds: ns/op of ours, base-ns/op, and x,
// base's time per operation over ours. The order within a pair alternates
// too, so that neither side always runs just after the other.
func Compare(b *testing.B, base, ours func()) {
	b.Helper()
	nBase, nOurs := perRound(base), perRound(ours)
	var baseNs, oursNs, ratios []float64
	for i := 0; b.Loop(); i++ {
		var tb, to float64
		if i%2 == 0 {
			tb, to = timeOf(base, nBase), timeOf(ours, nOurs)
		} else {
			to, tb = timeOf(ours, nOurs), timeOf(base, nBase)
		}
		baseNs, oursNs, ratios = append(baseNs, tb), append(oursNs, to), append(ratios, tb/to)
	}
	b.ReportMetric(median(oursNs), "ns/op")
	b.ReportMetric(median(baseNs), "base-ns/op")
	b.ReportMetric(median(ratios), "x")
}

// perRound returns how many calls of f take about Round, from a first
// estimate made after one warming call.
func perRound(f func()) int {
	f()
	n := 1
	for {
		d := time.Duration(timeOf(f, n) * float64(n))
		if d >= Round/4 || n >= 1<<30 {
			return max(1, int(float64(n)*float64(Round)/float64(max(d, 1))))
		}
		n *= 4
	}
}

// timeOf calls f n times and returns the nanoseconds per call. It first
// finishes any garbage collection under way, so that a round pays for the
// collections its own allocations start and not for those of the round
// before: baselines that allocate much would otherwise slow the other side.
func timeOf(f func(), n int) float64 {
	runtime.GC()
	start := time.Now()
	for range n {
		f()
	}
	return float64(time.Since(start).Nanoseconds()) / float64(n)
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
