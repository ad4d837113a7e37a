package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

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
	if !strings.Contains(b.String(), "Calls:          0") {
		t.Errorf("empty result text:\n%s", b.String())
	}
}

// The summary opens with the calls, successes and errors, the errors by
// code right under; failed calls count in neither the rate nor the
// success latencies, and have a distribution of their own.
func TestTextFailures(t *testing.T) {
	tests := []struct {
		name string
		r    *load.Result
		head string
		rate string
	}{
		{"all failed", stepResult(t0, 100, 100, time.Millisecond, 1),
			"\nSummary:\n  Calls:          100\n  Successes:      0 (0.00%)\n  Errors:         100 (100.00%)\n    [UNAVAILABLE]   100\n  Total:          10.00 s\n",
			"  Requests/sec:   0.00\n"},
		{"some failed", stepResult(t0, 100, 1000, time.Millisecond, 4),
			"\nSummary:\n  Calls:          1000\n  Successes:      750 (75.00%)\n  Errors:         250 (25.00%)\n    [UNAVAILABLE]   250\n  Total:          10.00 s\n",
			"  Requests/sec:   75.00\n"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		if err := WriteText(&b, tt.r, TextOptions{}); err != nil {
			t.Fatal(err)
		}
		text := b.String()
		if !strings.HasPrefix(text, tt.head) {
			t.Errorf("%s: summary starts\n%s\nwant\n%s", tt.name, text[:min(len(text), len(tt.head))], tt.head)
		}
		if !strings.Contains(text, tt.rate) || !strings.Contains(text, "\nFailed call latency distribution:\n") {
			t.Errorf("%s: want %q and the failed calls' distribution in\n%s", tt.name, tt.rate, text)
		}
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

// With an SLO, the JSON report carries the verdicts on the run and on each
// step, the capacity and the knee, as the text report shows them.
func TestJSONVerdicts(t *testing.T) {
	slo, err := ParseSLO("p99<10ms,errors<0.1%")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := (JSONOptions{SLO: slo}).Write(&b, ramp()); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Schema     string  `json:"schema"`
		OfferedRPS float64 `json:"offered_rps"`
		SLO        struct {
			Objectives string `json:"objectives"`
			Met        bool   `json:"met"`
			Verdicts   []struct {
				Clause   string  `json:"clause"`
				Measured float64 `json:"measured"`
				Unit     string  `json:"unit"`
				Pass     bool    `json:"pass"`
			} `json:"verdicts"`
		} `json:"slo"`
		Capacity struct {
			Found   bool    `json:"found"`
			RateRPS float64 `json:"rate_rps"`
			Step    int     `json:"step"`
		} `json:"capacity"`
		Knee struct {
			Step    int     `json:"step"`
			RateRPS float64 `json:"rate_rps"`
			Reason  string  `json:"reason"`
		} `json:"knee"`
		Steps []struct {
			SLO struct {
				Met bool `json:"met"`
			} `json:"slo"`
		} `json:"steps"`
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Schema != JSONSchema || got.OfferedRPS != 150 {
		t.Errorf("schema %q, offered %v", got.Schema, got.OfferedRPS)
	}
	if got.SLO.Objectives != "p99<10ms,errors<0.1%" || got.SLO.Met || len(got.SLO.Verdicts) != 2 ||
		got.SLO.Verdicts[1].Clause != "errors<0.1%" || got.SLO.Verdicts[1].Unit != "%" || got.SLO.Verdicts[1].Measured != 0.6 {
		t.Errorf("slo %+v", got.SLO)
	}
	if len(got.Steps) != 2 || !got.Steps[0].SLO.Met || got.Steps[1].SLO.Met {
		t.Errorf("step verdicts %+v", got.Steps)
	}
	if !got.Capacity.Found || got.Capacity.RateRPS != 100 || got.Capacity.Step != 1 {
		t.Errorf("capacity %+v", got.Capacity)
	}
	if got.Knee.Step != 2 || got.Knee.RateRPS != 200 || !strings.Contains(got.Knee.Reason, "achieved 148.50/s") {
		t.Errorf("knee %+v", got.Knee)
	}
	if _, err := ReadJSON(bytes.NewReader(b.Bytes())); err != nil {
		t.Errorf("reading it back: %v", err)
	}
	if _, err := ReadJSON(strings.NewReader(`{"schema":"rpckit.bench/v9"}`)); err == nil || !strings.Contains(err.Error(), `schema "rpckit.bench/v9"`) {
		t.Errorf("unknown schema: err %v", err)
	}
}
