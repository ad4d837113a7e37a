package transcode

import (
	"bytes"
	"errors"
	"testing"
)

// TestOutputHint follows the hint through results of changing length: it
// starts empty, leaves room for the result and some more, stays put for
// results of about one size, grows when one outgrows it, shrinks when one
// needs less than half, and past maxHintedOutput gives up (copyLong) or
// goes on (hintLong) until a long result outgrows it by more than a
// quarter. A new hint for a result of l bytes is l+l/8+8, or the
// allocator's block for l+8 bytes when that is smaller; the hints below
// are worked out by hand from Go's size classes (blocks of 16, 48, 64,
// 112, 192, 208, 512, 2048, 5376 and 6144 bytes).
func TestOutputHint(t *testing.T) {
	for _, c := range []struct{ l, hint int }{
		{1, 9}, {7, 15}, {8, 16}, {40, 48}, {49, 63}, {100, 112}, {181, 192}, {200, 208}, {500, 512},
	} {
		var h outputHint
		if _, err := h.convertOut(func(dst []byte) ([]byte, error) { return append(dst, make([]byte, c.l)...), nil }, copyLong); err != nil {
			t.Fatal(err)
		}
		if got := int(h.n.Load()); got != c.hint {
			t.Errorf("a first result of %d bytes gives a hint of %d, want %d", c.l, got, c.hint)
		}
	}
	type step struct{ l, hint int } // result length, hint after it
	short := []step{
		{100, 112}, // first result, copied: the hint starts
		{104, 112}, // fits
		{60, 112},  // needs 75, more than half
		{40, 48},   // less than half: shrinks
		{48, 48},   // fits exactly
		{49, 63},   // outgrows it
	}
	for _, c := range []struct {
		long  longOutput
		steps []step
	}{
		{copyLong, append(short,
			step{1000, 0},  // would need more than maxHintedOutput
			step{1000, 0},  // copied again
			step{200, 208}, // short again: hinted again
		)},
		{hintLong, []step{
			{5000, 5376}, // long: copied first, then hinted
			{5300, 5376}, // fits
			{6000, 6144}, // outgrows it by less than a quarter
			{3000, 6144}, // needs 3383, more than half
			{2000, 2048}, // less than half: shrinks
			{1500, 2048}, // fits
			{200, 208},   // short again
			{1 << 20, 0}, // a long result outgrows the hint: copied from now on
			{200, 0},     // copied, short as it is
			{5000, 0},    // copied
		}},
	} {
		var h outputHint
		for i, s := range c.steps {
			hint := int(h.n.Load())
			var caps []int
			res, err := h.convertOut(func(dst []byte) ([]byte, error) {
				caps = append(caps, cap(dst))
				return append(dst, bytes.Repeat([]byte{'x'}, s.l)...), nil
			}, c.long)
			if err != nil || len(res) != s.l {
				t.Fatalf("%v step %d: got %d bytes, %v; want %d", bool(c.long), i, len(res), err, s.l)
			}
			if got := int(h.n.Load()); got != s.hint {
				t.Errorf("%v step %d: result of %d bytes leaves hint %d, want %d", bool(c.long), i, s.l, got, s.hint)
			}
			if len(caps) != 1 {
				t.Fatalf("%v step %d: converted %d times", bool(c.long), i, len(caps))
			}
			if hint > 0 && caps[0] < hint {
				t.Errorf("%v step %d: converted into %d bytes, the hint is %d", bool(c.long), i, caps[0], hint)
			}
			if hint > maxHintedOutput && cap(res) != len(res) {
				t.Errorf("%v step %d: a result in uncleared memory has capacity %d past its %d bytes", bool(c.long), i, cap(res), len(res))
			}
		}
	}
}

// TestOutputHintUnsteady checks that long results of one size keep being
// converted into uncleared memory of the hinted size, and that once one
// outgrows it all results of the type are copied, long or short.
func TestOutputHintUnsteady(t *testing.T) {
	var h outputHint
	conv := func(l int) (hint, dstCap int) {
		hint = int(h.n.Load())
		res, err := h.convertOut(func(dst []byte) ([]byte, error) {
			dstCap = cap(dst)
			return append(dst, bytes.Repeat([]byte{'y'}, l)...), nil
		}, hintLong)
		if err != nil || len(res) != l || hint > maxHintedOutput && cap(res) != l {
			t.Fatalf("result of %d bytes: got %d (capacity %d), %v", l, len(res), cap(res), err)
		}
		return hint, dstCap
	}
	conv(9000) // copied: the hint starts
	for range 3 {
		if hint, c := conv(9000); hint != 9472 || c != hint {
			t.Fatalf("a steady result of 9000 bytes is converted into %d bytes with hint %d", c, hint)
		}
	}
	if h.unsteady.Load() {
		t.Fatal("steady results made the hint unsteady")
	}
	conv(11000) // outgrows it by less than a quarter
	if h.unsteady.Load() || h.n.Load() != 12288 {
		t.Fatalf("a result outgrowing the hint a little leaves hint %d, unsteady %v", h.n.Load(), h.unsteady.Load())
	}
	conv(16000) // by more than a quarter
	if !h.unsteady.Load() {
		t.Fatal("a result outgrew the hint and left it steady")
	}
	for _, l := range []int{16000, 9000, 500, 500, 9000} {
		if hint, _ := conv(l); hint != 0 || h.n.Load() != 0 {
			t.Errorf("a result of %d bytes of an unsteady type is converted with hint %d and leaves %d", l, hint, h.n.Load())
		}
	}
}

// TestOutputHintResults checks that each result has memory of its own,
// which later conversions do not write to, and that an error gives no
// result, whichever way the conversion went.
func TestOutputHintResults(t *testing.T) {
	for _, size := range []int{50, 5000} {
		var h outputHint
		var results [][]byte
		for i := range 6 {
			res, err := h.convertOut(func(dst []byte) ([]byte, error) {
				return append(dst, bytes.Repeat([]byte{byte('a' + i)}, size+i)...), nil
			}, hintLong)
			if err != nil {
				t.Fatal(err)
			}
			results = append(results, res)
		}
		for i, r := range results {
			if want := bytes.Repeat([]byte{byte('a' + i)}, size+i); !bytes.Equal(r, want) {
				t.Errorf("result %d of %d bytes changed to %q", i, size+i, r)
			}
		}
	}
	bad := errors.New("bad input")
	var h outputHint
	for _, hint := range []int32{0, 80, 5376} {
		h.n.Store(hint)
		res, err := h.convertOut(func(dst []byte) ([]byte, error) { return append(dst, "partial"...), bad }, hintLong)
		if err != bad || res != nil {
			t.Errorf("hint %d: error gives %q, %v; want nil, %v", hint, res, err, bad)
		}
		if got := h.n.Load(); got != hint {
			t.Errorf("hint %d: an error changed the hint to %d", hint, got)
		}
	}
}

// TestBlockSize checks the sizes worked out for large blocks against the
// allocator's.
func TestBlockSize(t *testing.T) {
	for _, n := range []int{32<<10 + 1, 40 << 10, 40<<10 + 1, 1 << 20, 1<<20 + 8} {
		if got, want := blockSize(n), cap(append([]byte(nil), make([]byte, n)...)); got != want {
			t.Errorf("blockSize(%d) = %d, the allocator gives %d", n, got, want)
		}
	}
}
