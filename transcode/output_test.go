package transcode

import (
	"bytes"
	"errors"
	"testing"
)

// TestOutputHint follows the hint through results of changing length: it
// starts empty, leaves room for the result and some more, stays put for
// results of about one size, grows when one outgrows it, shrinks when one
// needs less than half, and gives up past maxHintedOutput for copyLong
// results. A new hint for a result of l bytes is l+l/8+8, or the
// allocator's block for l+8 bytes when that is smaller; the hints below are
// worked out by hand from Go's size classes (blocks of 16, 48, 64, 112,
// 192, 208, 512, 5376 and 9472 bytes, and 8 KiB pages past 32 KiB).
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
	for name, long := range map[string]longOutput{"copyLong": copyLong, "hintLong": hintLong} {
		// a result past maxHintedOutput: copied and unhinted, or hinted
		longHint := func(hint int) int {
			if long == copyLong {
				return 0
			}
			return hint
		}
		var h outputHint
		steps := []struct {
			l, hint int // result length, hint after it
		}{
			{100, 112},                        // first result, copied: the hint starts
			{104, 112},                        // fits
			{60, 112},                         // needs 75, more than half
			{40, 48},                          // less than half: shrinks
			{48, 48},                          // fits exactly
			{49, 63},                          // outgrows it
			{5000, longHint(5376)},            // long: 5633 would be more than maxHintedOutput
			{5300, longHint(5376)},            // fits, or copied again
			{9000, longHint(9472)},            // outgrows it
			{200, 208},                        // short again: hinted again
			{1 << 20, longHint(1<<20 + 8192)}, // long: the allocator's pages
		}
		for i, s := range steps {
			hint := int(h.n.Load())
			var caps []int
			res, err := h.convertOut(func(dst []byte) ([]byte, error) {
				caps = append(caps, cap(dst))
				return append(dst, bytes.Repeat([]byte{'x'}, s.l)...), nil
			}, long)
			if err != nil || len(res) != s.l {
				t.Fatalf("%s step %d: got %d bytes, %v; want %d", name, i, len(res), err, s.l)
			}
			if got := int(h.n.Load()); got != s.hint {
				t.Errorf("%s step %d: result of %d bytes leaves hint %d, want %d", name, i, s.l, got, s.hint)
			}
			if len(caps) != 1 {
				t.Fatalf("%s step %d: converted %d times", name, i, len(caps))
			}
			if hint > 0 && caps[0] < hint {
				t.Errorf("%s step %d: converted into %d bytes, the hint is %d", name, i, caps[0], hint)
			}
			if hint > maxHintedOutput && cap(res) != len(res) {
				t.Errorf("%s step %d: a result in uncleared memory has capacity %d past its %d bytes", name, i, cap(res), len(res))
			}
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
