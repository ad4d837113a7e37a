package promscrape

import "math"

// total is the observations in h: its +Inf bucket.
func (h *hist) total() float64 {
	if h == nil || len(h.counts) == 0 {
		return 0
	}
	return h.counts[len(h.counts)-1]
}

// minus is h less the earlier o, bucket by bucket; h itself when o is nil
// or has other bounds, and when a bucket went down (the process
// restarted, so h counts from zero).
func (h *hist) minus(o *hist) *hist {
	if o == nil || len(o.bounds) != len(h.bounds) {
		return h
	}
	out := h.clone()
	for i := range out.counts {
		if out.bounds[i] != o.bounds[i] || out.counts[i] < o.counts[i] {
			return h
		}
		out.counts[i] -= o.counts[i]
	}
	out.count -= o.count
	out.sum -= o.sum
	return out
}

// quantile is the q-quantile (0 to 1) of h, interpolated linearly within
// the bucket it falls in, as Prometheus's histogram_quantile does: the
// first bucket's lower bound is 0 (or its upper bound when that is not
// positive), and a quantile in the +Inf bucket is the highest finite
// bound. NaN for an empty histogram.
func (h *hist) quantile(q float64) float64 {
	total := h.total()
	if total <= 0 || len(h.bounds) < 2 {
		return math.NaN()
	}
	rank := q * total
	for i, c := range h.counts {
		if c >= rank {
			return h.within(i, rank)
		}
	}
	return h.bounds[len(h.bounds)-2]
}

// within is the value of the given rank in bucket i, interpolated between
// its bounds.
func (h *hist) within(i int, rank float64) float64 {
	if math.IsInf(h.bounds[i], 1) {
		return h.bounds[i-1]
	}
	lower, below := 0.0, 0.0
	if i > 0 {
		lower, below = h.bounds[i-1], h.counts[i-1]
	} else if h.bounds[0] <= 0 {
		return h.bounds[0]
	}
	if c := h.counts[i]; c > below {
		return min(lower+(h.bounds[i]-lower)*(rank-below)/(c-below), h.bounds[i])
	}
	return h.bounds[i]
}

// toward is h moved a fraction f of the way to o, bucket by bucket; the
// bounds must agree.
func (h *hist) toward(o *hist, f float64) *hist {
	out := h.clone()
	for i := range out.counts {
		out.counts[i] += (o.counts[i] - h.counts[i]) * f
	}
	out.count += (o.count - h.count) * f
	out.sum += (o.sum - h.sum) * f
	return out
}

// empty is a histogram of h's bounds with no observations.
func (h *hist) empty() *hist {
	return &hist{bounds: h.bounds, counts: make([]float64, len(h.counts))}
}
