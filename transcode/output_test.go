package transcode

import (
	"bytes"
	"errors"
	"testing"
)

// TestOutputHint follows the hint through results of changing length: it
// starts empty, leaves room for the result and some more, stays put for
// results of about one size, grows when one outgrows it, shrinks when one
// needs less than half, and gives up past maxHintedOutput.
func TestOutputHint(t *testing.T) {
	var h outputHint
	room := func(l int) int { return min(l+l/8+8, blockSize(l+8)) } // a new hint for l
	steps := []struct {
		l, hint int // result length, hint after it
	}{
		{100, room(100)},                   // first result, copied: the hint starts
		{104, room(100)},                   // fits
		{60, room(100)},                    // needs 75, more than half
		{40, room(40)},                     // less than half: shrinks
		{room(40), room(40)},               // fits exactly
		{room(40) + 1, room(room(40) + 1)}, // outgrows it
		{1000, 0},                          // would need more than maxHintedOutput
		{1000, 0},                          // copied again
		{200, room(200)},                   // short again: hinted again
	}
	for _, l := range []int{1, 7, 8, 100, 181, 500, 1000} {
		if r := room(l); r < l+8 || r > l+l/8+8 || blockSize(r) != r && r != l+l/8+8 {
			t.Errorf("a result of %d bytes gives a hint of %d: not a whole block from %d to %d", l, r, l+8, l+l/8+8)
		}
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
