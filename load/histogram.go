package load

import (
	"fmt"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// Histogram geometry: values are microseconds from 1 µs to 1 h, kept to 3
// significant digits (about 190 KB of counters, whatever is recorded).
const (
	lowestMicros  = 1
	highestMicros = int64(time.Hour / time.Microsecond)
	sigFigures    = 3
)

// A Histogram is a latency distribution of fixed size: 1 µs to 1 h at 3
// significant digits. Durations below 1 µs count as 0 and above 1 h as 1 h.
// The zero value is an empty histogram ready to use. A Histogram is not safe
// for concurrent use.
type Histogram struct {
	h *hdr.Histogram
}

// NewHistogram returns an empty Histogram.
func NewHistogram() *Histogram {
	return &Histogram{h: newHDR()}
}

func newHDR() *hdr.Histogram {
	return hdr.New(lowestMicros, highestMicros, sigFigures)
}

// Record adds one duration. It does not allocate once the histogram exists.
func (h *Histogram) Record(d time.Duration) {
	if h.h == nil {
		h.h = newHDR()
	}
	_ = h.h.RecordValue(toMicros(d)) // in range by construction
}

// toMicros clamps d to the histogram's range, in microseconds.
func toMicros(d time.Duration) int64 {
	us := int64(d / time.Microsecond)
	return min(max(us, 0), highestMicros)
}

func fromMicros(us int64) time.Duration {
	return time.Duration(us) * time.Microsecond
}

// Merge adds every value of o to h. Merging histograms is exact: the result
// equals the histogram that recorded all the values itself.
func (h *Histogram) Merge(o *Histogram) {
	if o == nil || o.h == nil || o.h.TotalCount() == 0 {
		return
	}
	if h.h == nil {
		h.h = newHDR()
	}
	h.h.Merge(o.h)
}

// Clone returns an independent copy of h.
func (h *Histogram) Clone() *Histogram {
	if h == nil || h.h == nil {
		return &Histogram{}
	}
	return &Histogram{h: h.h.Clone()}
}

// Reset empties h, keeping its memory.
func (h *Histogram) Reset() {
	if h.h != nil {
		h.h.Reset()
	}
}

// Count is the number of recorded values.
func (h *Histogram) Count() int64 {
	if h == nil || h.h == nil {
		return 0
	}
	return h.h.TotalCount()
}

// Percentile returns the value at percentile p (0 to 100): p=99 is the
// value 99% of recorded values are at or below. It is 0 when h is empty.
func (h *Histogram) Percentile(p float64) time.Duration {
	if h.Count() == 0 {
		return 0
	}
	return fromMicros(h.h.ValueAtPercentile(p))
}

// Min is the smallest recorded value (to the histogram's precision).
func (h *Histogram) Min() time.Duration {
	if h.Count() == 0 {
		return 0
	}
	return fromMicros(h.h.Min())
}

// Max is the largest recorded value (to the histogram's precision).
func (h *Histogram) Max() time.Duration {
	if h.Count() == 0 {
		return 0
	}
	return fromMicros(h.h.Max())
}

// Mean is the arithmetic mean of the recorded values.
func (h *Histogram) Mean() time.Duration {
	if h.Count() == 0 {
		return 0
	}
	return time.Duration(h.h.Mean() * float64(time.Microsecond))
}

// StdDev is the standard deviation of the recorded values.
func (h *Histogram) StdDev() time.Duration {
	if h.Count() == 0 {
		return 0
	}
	return time.Duration(h.h.StdDev() * float64(time.Microsecond))
}

// Equal reports whether h and o hold exactly the same counts.
func (h *Histogram) Equal(o *Histogram) bool {
	if h.Count() == 0 || o.Count() == 0 {
		return h.Count() == o.Count()
	}
	return h.h.Equals(o.h)
}

// MarshalText encodes h in HdrHistogram's compressed V2 form, base64 (the
// "HISTFAAA..." strings of HdrHistogram interval logs). Values are in
// microseconds. The encoding is exact: UnmarshalText restores every count.
func (h *Histogram) MarshalText() ([]byte, error) {
	var src *hdr.Histogram
	if h != nil {
		src = h.h
	}
	if src == nil {
		src = newHDR()
	}
	b, err := src.Encode(hdr.V2CompressedEncodingCookieBase)
	if err != nil {
		return nil, fmt.Errorf("load: encode histogram: %w", err)
	}
	return b, nil
}

// UnmarshalText replaces h with the histogram encoded in text by
// MarshalText (or by any HdrHistogram implementation, values in µs).
func (h *Histogram) UnmarshalText(text []byte) error {
	d, err := hdr.Decode(text)
	if err != nil {
		return fmt.Errorf("load: decode histogram: %w", err)
	}
	h.h = d
	return nil
}
