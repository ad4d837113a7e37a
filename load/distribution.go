package load

import (
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// StandardPercentiles returns the percentiles reports show: 10, 25, 50, 75,
// 90, 95, 99, 99.9, 99.99, 99.999 and 100 (the max).
func StandardPercentiles() []float64 {
	return []float64{10, 25, 50, 75, 90, 95, 99, 99.9, 99.99, 99.999, 100}
}

// A Percentile is the value at one percentile of a Histogram.
type Percentile struct {
	Percentile float64 // 0 to 100
	Value      time.Duration
}

// Percentiles returns the values at each of ps (0 to 100), in order.
func (h *Histogram) Percentiles(ps []float64) []Percentile {
	out := make([]Percentile, len(ps))
	for i, p := range ps {
		out[i] = Percentile{Percentile: p, Value: h.Percentile(p)}
	}
	return out
}

// A Bar is one non-empty bucket of a Histogram: Count values in [From, To].
type Bar struct {
	From, To time.Duration
	Count    int64
}

// Bars returns the histogram's non-empty buckets in increasing order.
func (h *Histogram) Bars() []Bar {
	if h.Count() == 0 {
		return nil
	}
	var out []Bar
	for _, b := range h.h.Distribution() {
		if b.Count == 0 {
			continue
		}
		out = append(out, Bar{From: fromMicros(b.From), To: fromMicros(b.To), Count: b.Count})
	}
	return out
}

// A SpectrumPoint is one line of a detailed percentile spectrum: the value
// at Quantile (0 to 1), with TotalCount values at or below it.
type SpectrumPoint struct {
	Value      time.Duration
	Quantile   float64
	TotalCount int64
}

// Spectrum returns the detailed percentile spectrum HdrHistogram prints
// (and wrk2 shows): ticksPerHalf points for each halving of the distance to
// 100%, ending with the max at quantile 1. wrk2 uses 5.
func (h *Histogram) Spectrum(ticksPerHalf int) []SpectrumPoint {
	if h.Count() == 0 {
		return nil
	}
	if ticksPerHalf < 1 {
		ticksPerHalf = 1
	}
	brackets := h.h.CumulativeDistributionWithTicks(int32(ticksPerHalf))
	out := make([]SpectrumPoint, len(brackets))
	for i, b := range brackets {
		out[i] = SpectrumPoint{Value: fromMicros(b.ValueAt), Quantile: b.Quantile / 100, TotalCount: b.Count}
	}
	return out
}

// Geometry describes a Histogram's buckets, as HdrHistogram reports them
// under a percentile spectrum.
func (h *Histogram) Geometry() (buckets, subBuckets int) {
	var src *hdr.Histogram
	if h != nil {
		src = h.h
	}
	if src == nil {
		src = newHDR()
	}
	// HdrHistogram does not export these; they follow from the counts
	// layout: (buckets+1) * subBuckets/2 counters, subBuckets being the
	// power of two that holds 2*10^significantFigures values.
	limit := 2
	for range src.SignificantFigures() {
		limit *= 10
	}
	sub := 2
	for sub < limit {
		sub <<= 1
	}
	return len(src.Export().Counts)/(sub/2) - 1, sub
}
