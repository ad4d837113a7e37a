package transcode

import (
	"sync"
	"sync/atomic"
)

// outputHint is the capacity to give the next result of a conversion of
// one type in one direction, learnt from the results before it; zero
// until the first, and then zero again while they are too long to hint.
//
// A result can be converted straight into a buffer of the hinted size,
// which the caller keeps: one allocation, with no pool and no copy, which
// for short messages are a sixth of the time. Results longer than
// maxHintedOutput are converted into a pooled buffer and copied into one
// of their exact size instead, since there the slack of a guess would cost
// the garbage collector more than the copy costs.
type outputHint struct{ n atomic.Int32 }

// maxHintedOutput is the longest result converted into a buffer of the
// hinted size.
const maxHintedOutput = 1024

// convertOut runs convert, which appends a result to its argument, and
// returns the result in memory of its own: one allocation when the result
// fits the hint or is copied (none on error), two when it outgrows the
// hint, which then grows for the next.
func (h *outputHint) convertOut(convert func(dst []byte) ([]byte, error)) ([]byte, error) {
	n := int(h.n.Load())
	var out []byte
	var err error
	if n == 0 {
		out, err = exactCopy(convert)
	} else if out, err = convert(make([]byte, 0, n)); err != nil {
		out = nil
	}
	if err == nil {
		h.learn(n, len(out))
	}
	return out, err
}

// learn updates the hint n after a result of length l, when n is short of
// l or more than twice what l needs, so that results of about one size
// keep one hint: room for l and an eighth more, or less where the
// allocator's block for l and 8 more is smaller. A hint is rounded up to a
// whole block anyway, so one of a block's size wastes none of it, and
// fewer bytes per result mean fewer collections.
func (h *outputHint) learn(n, l int) {
	want := l + l/8 + 8
	switch {
	case want > maxHintedOutput:
		want = 0
	case n >= l && n <= 2*want:
		return
	default:
		want = min(want, blockSize(l+8))
	}
	if want != n {
		h.n.Store(int32(want))
	}
}

// blockSize returns the size of the block the allocator gives a slice of
// n bytes: the capacity append leaves it.
func blockSize(n int) int { return cap(append([]byte(nil), make([]byte, n)...)) }

// exactCopy runs convert on a pooled buffer and returns a copy of its
// result of the exact size, one allocation (none on error).
func exactCopy(convert func(dst []byte) ([]byte, error)) ([]byte, error) {
	buf := outputs.Get().(*[]byte)
	out, err := convert((*buf)[:0])
	var res []byte
	if err == nil {
		res = append([]byte(nil), out...)
		if res == nil {
			res = []byte{}
		}
	}
	if cap(out) <= maxPooledOutput {
		*buf = out[:0]
	}
	outputs.Put(buf)
	return res, err
}

// outputs pools the conversion buffers of exactCopy, up to maxPooledOutput
// bytes.
var outputs = sync.Pool{New: func() any { return new([]byte) }}

const maxPooledOutput = 1 << 20
