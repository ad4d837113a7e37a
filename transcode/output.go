package transcode

import (
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
)

// outputHint is the capacity to give the next result of a conversion of
// one type in one direction, learnt from the results before it; zero
// until the first, and then zero again while they are too long to hint
// or of changing sizes.
//
// A result can be converted straight into a buffer of the hinted size,
// which the caller keeps: one allocation, with no pool and no copy, which
// for short messages are a sixth of the time. Past maxHintedOutput bytes
// the two directions part (see longOutput).
type outputHint struct {
	n atomic.Int32
	// unsteady is set once a result longer than maxHintedOutput has
	// outgrown the buffer of a hint by more than a quarter. A result
	// grows out of its buffer by copying, a quarter more at a time: one
	// step costs about what copying the result from a pooled buffer
	// does, but several, for results of changing sizes, cost far more.
	// All results of an unsteady type are copied, short ones too (a
	// short hint would be outgrown again).
	unsteady atomic.Bool
}

// maxHintedOutput is the longest result converted into a cleared buffer of
// the hinted size.
const maxHintedOutput = 1024

// longOutput says how results longer than maxHintedOutput are made.
type longOutput bool

const (
	// copyLong converts them into a pooled buffer and copies them into
	// one of their exact size. Wire bytes take this way: converted
	// straight into uncleared memory they come out no sooner (Medium's,
	// 0.98x), and a guess's slack would only cost collections.
	copyLong longOutput = false
	// hintLong converts them straight into uncleared memory of the
	// hinted size, until the hint is unsteady. JSON takes this way:
	// clearing kilobytes of fresh memory that is not in the cache, or
	// copying into it, costs a sixth as much as printing them, while
	// printing writes them front to back and the processor overlaps
	// those writes with its work.
	hintLong longOutput = true
)

// convertOut runs convert, which appends a result to its argument, and
// returns the result in memory of its own: one allocation when the result
// fits the hint or is copied (none on error), more when it outgrows the
// hint, which then grows for the next. A result in uncleared memory comes
// with no capacity past it, so that no old bytes can be seen.
func (h *outputHint) convertOut(convert func(dst []byte) ([]byte, error), long longOutput) ([]byte, error) {
	n := int(h.n.Load())
	var dst, out []byte
	var err error
	switch {
	case n == 0:
		out, err = exactCopy(convert)
	case n <= maxHintedOutput:
		dst = make([]byte, 0, n)
		out, err = convert(dst)
	default:
		dst = uncleared(n)
		if out, err = convert(dst); err == nil {
			out = out[:len(out):len(out)]
		}
	}
	if err != nil {
		return nil, err
	}
	if n > 0 && len(out) > maxHintedOutput && len(out) > cap(dst)+cap(dst)/4 {
		h.unsteady.Store(true)
	}
	h.learn(n, len(out), long)
	return out, nil
}

// learn updates the hint n after a result of length l, when n is short of
// l or more than twice what l needs, so that results of about one size
// keep one hint: room for l and an eighth more, or less where the
// allocator's block for l and 8 more is smaller. A hint is rounded up to a
// whole block anyway, so one of a block's size wastes none of it, and
// fewer bytes per result mean fewer collections (a hint of an eighth more
// for Medium's JSON, a block bigger, prints it 1.01-1.04x slower). Past
// maxHintedOutput, a copyLong result leaves no hint; an unsteady hint
// stays none.
func (h *outputHint) learn(n, l int, long longOutput) {
	want := l + l/8 + 8
	switch {
	case want > maxHintedOutput && long == copyLong, want > math.MaxInt32, h.unsteady.Load():
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
// n bytes: the capacity append leaves it. Past 32 KiB the blocks are whole
// pages of 8 KiB, worked out rather than allocated.
func blockSize(n int) int {
	if n > 32<<10 {
		return (n + 8<<10 - 1) &^ (8<<10 - 1)
	}
	return cap(append([]byte(nil), make([]byte, n)...))
}

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

// uncleared returns an empty slice with room for at least n bytes, in
// memory the allocator has not cleared: what was there before is still
// there, for the caller to write over before it reads. strings.Builder's
// Grow is the standard library's one way to allocate such memory; the
// builder and the string taken from it end here, leaving the slice the one
// reference to the memory.
func uncleared(n int) []byte {
	var b strings.Builder
	b.Grow(n)
	b.WriteByte(0)
	s := b.String()
	return unsafe.Slice(unsafe.StringData(s), b.Cap())[:0]
}

// outputs pools the conversion buffers of exactCopy, up to maxPooledOutput
// bytes.
var outputs = sync.Pool{New: func() any { return new([]byte) }}

const maxPooledOutput = 1 << 20
