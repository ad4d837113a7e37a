package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rpckit/rpckit/load"
)

func TestTextGolden(t *testing.T) {
	var b bytes.Buffer
	if err := WriteText(&b, ramp(), TextOptions{Spectrum: true}); err != nil {
		t.Fatal(err)
	}
	golden(t, "ramp.txt", b.Bytes())
}

func TestTextConstant(t *testing.T) {
	var b bytes.Buffer
	if err := WriteText(&b, stepResult(t0, 100, 1000, 1e6, 0), TextOptions{}); err != nil {
		t.Fatal(err)
	}
	golden(t, "constant.txt", b.Bytes())
}

func TestTextEmpty(t *testing.T) {
	var b bytes.Buffer
	empty := &load.Result{}
	if err := WriteText(&b, empty, TextOptions{Spectrum: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "Count:          0") {
		t.Errorf("empty result text:\n%s", b.String())
	}
}

func TestJSONGolden(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, ramp()); err != nil {
		t.Fatal(err)
	}
	golden(t, "ramp.json", b.Bytes())
}

func TestJSONRoundTrip(t *testing.T) {
	want := ramp()
	var b bytes.Buffer
	if err := WriteJSON(&b, want); err != nil {
		t.Fatal(err)
	}
	got, err := ReadJSON(&b)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Corrected.Equal(want.Corrected) || !got.Service.Equal(want.Service) {
		t.Error("histograms differ after a JSON round trip")
	}
	if got.Calls != want.Calls || got.Errors != want.Errors || got.NotSent != want.NotSent ||
		!got.Start.Equal(want.Start) || got.Duration != want.Duration || got.MeanLag != want.MeanLag {
		t.Errorf("got %+v", got)
	}
	if len(got.Steps) != 2 || got.Steps[1].Offered != 200 || !got.Steps[1].Corrected.Equal(want.Steps[1].Corrected) {
		t.Error("steps differ after a JSON round trip")
	}
	if len(got.Series) != 20 || got.Series[3] != want.Series[3] {
		t.Errorf("series differ: %+v", got.Series[3])
	}
	// Results read back merge exactly.
	m := load.Merge(got, got)
	if m.Corrected.Count() != 2*want.Corrected.Count() || m.Corrected.Percentile(99) != want.Corrected.Percentile(99) {
		t.Error("merge of read results is not exact")
	}
	if _, err := ReadJSON(strings.NewReader(`{"latency":{"histogram":"garbage"}}`)); err == nil || !strings.HasPrefix(err.Error(), "report: ") {
		t.Errorf("bad histogram: err %v", err)
	}
}

func TestCSVGolden(t *testing.T) {
	r := ramp()
	var b bytes.Buffer
	if err := WriteSeriesCSV(&b, r); err != nil {
		t.Fatal(err)
	}
	golden(t, "series.csv", b.Bytes())
	b.Reset()
	if err := WriteSummaryCSV(&b, r); err != nil {
		t.Fatal(err)
	}
	golden(t, "summary.csv", b.Bytes())
}

func TestCompareGolden(t *testing.T) {
	a := stepResult(t0, 100, 1000, 1e6, 0)
	b2 := stepResult(t0, 100, 1000, 3e6, 50)
	var b bytes.Buffer
	if err := WriteCompare(&b, a, b2, "before", "after"); err != nil {
		t.Fatal(err)
	}
	golden(t, "compare.txt", b.Bytes())
}
