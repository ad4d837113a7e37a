package transcode

import (
	"bytes"
	"errors"
	"testing"
)

// TestOutputHint follows the hint through results of changing length: it
// starts empty, leaves room for the result and some more, stays put for
// results of about one size, grows when one outgrows it, shrinks when one
// needs less than half, and gives up past maxHintedOutput. A new hint for
// a result of l bytes is l+l/8+8, or the allocator's block for l+8 bytes
// when that is smaller; the hints below are worked out by hand from Go's
// size classes (blocks of 16, 48, 64, 112, 192, 208 and 512 bytes).
func TestOutputHint(t *testing.T) {
	for _, c := range []struct{ l, hint int }{
		{1, 9}, {7, 15}, {8, 16}, {40, 48}, {49, 63}, {100, 112}, {181, 192}, {200, 208}, {500, 512},
	} {
		var h outputHint
		if _, err := h.convertOut(func(dst []byte) ([]byte, error) { return append(dst, make([]byte, c.l)...), nil }); err != nil {
			t.Fatal(err)
		}
		if got := int(h.n.Load()); got != c.hint {
			t.Errorf("a first result of %d bytes gives a hint of %d, want %d", c.l, got, c.hint)
		}
	}
	var h outputHint
	steps := []struct {
		l, hint int // result length, hint after it
	}{
		{100, 112}, // first result, copied: the hint starts
		{104, 112}, // fits
		{60, 112},  // needs 75, more than half
		{40, 48},   // less than half: shrinks
		{48, 48},   // fits exactly
		{49, 63},   // outgrows it
		{1000, 0},  // would need more than maxHintedOutput
		{1000, 0},  // copied again
		{200, 208}, // short again: hinted again
	}
	for i, s := range steps {
		var caps []int
		res, err := h.convertOut(func(dst []byte) ([]byte, error) {
			caps = append(caps, cap(dst))
			return append(dst, bytes.Repeat([]byte{'x'}, s.l)...), nil
		})
		if err != nil || len(res) != s.l {
			t.Fatalf("step %d: got %d bytes, %v; want %d", i, len(res), err, s.l)
		}
		if got := int(h.n.Load()); got != s.hint {
			t.Errorf("step %d: result of %d bytes leaves hint %d, want %d", i, s.l, got, s.hint)
		}
		if len(caps) != 1 {
			t.Fatalf("step %d: converted %d times", i, len(caps))
		}
	}
}

// TestOutputHintResults checks that each result has memory of its own,
// which later conversions do not write to, and that an error gives no
// result, whichever way the conversion went.
func TestOutputHintResults(t *testing.T) {
	var h outputHint
	var results [][]byte
	for i := range 6 {
		res, err := h.convertOut(func(dst []byte) ([]byte, error) {
			return append(dst, bytes.Repeat([]byte{byte('a' + i)}, 50+i)...), nil
		})
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, res)
	}
	for i, r := range results {
		if want := bytes.Repeat([]byte{byte('a' + i)}, 50+i); !bytes.Equal(r, want) {
			t.Errorf("result %d changed to %q", i, r)
		}
	}
	bad := errors.New("bad input")
	for _, hint := range []int32{0, 80} {
		h.n.Store(hint)
		res, err := h.convertOut(func(dst []byte) ([]byte, error) { return append(dst, "partial"...), bad })
		if err != bad || res != nil {
			t.Errorf("hint %d: error gives %q, %v; want nil, %v", hint, res, err, bad)
		}
		if got := h.n.Load(); got != hint {
			t.Errorf("hint %d: an error changed the hint to %d", hint, got)
		}
	}
}
