package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/rpckit/rpckit/load"
)

func TestLogGolden(t *testing.T) {
	var b bytes.Buffer
	if err := WriteLog(&b, ramp()); err != nil {
		t.Fatal(err)
	}
	golden(t, "ramp.hlog", b.Bytes())
}

func TestLogRoundTrip(t *testing.T) {
	r := ramp()
	var b bytes.Buffer
	if err := WriteLog(&b, r); err != nil {
		t.Fatal(err)
	}
	log, err := ReadLog(&b)
	if err != nil {
		t.Fatal(err)
	}
	if !log.Start.Equal(t0) || len(log.Intervals) != 4 {
		t.Fatalf("start %v, %d intervals", log.Start, len(log.Intervals))
	}
	iv := log.Intervals[2]
	if iv.Tag != "" || iv.At != 10*time.Second || iv.Length != 10*time.Second || iv.Max != 160127*time.Microsecond {
		t.Errorf("interval 3: %+v", iv)
	}
	if log.Intervals[3].Tag != ServiceTag {
		t.Errorf("interval 4 tag %q", log.Intervals[3].Tag)
	}
	if !log.Merged("").Equal(r.Corrected) || !log.Merged(ServiceTag).Equal(r.Service) {
		t.Error("merged intervals differ from the result's histograms")
	}
}

// TestMergeLogsExact merges the logs of two "machines" and checks the
// percentiles are those of one histogram of all their calls.
func TestMergeLogsExact(t *testing.T) {
	a := stepResult(t0, 100, 3000, time.Millisecond, 0)
	b := stepResult(t0.Add(time.Second), 100, 2000, 7*time.Millisecond, 0)
	var la, lb bytes.Buffer
	if err := WriteLog(&la, a); err != nil {
		t.Fatal(err)
	}
	if err := WriteLog(&lb, b); err != nil {
		t.Fatal(err)
	}
	logA, err := ReadLog(&la)
	if err != nil {
		t.Fatal(err)
	}
	logB, err := ReadLog(&lb)
	if err != nil {
		t.Fatal(err)
	}
	all := load.NewHistogram()
	all.Merge(a.Corrected)
	all.Merge(b.Corrected)
	merged := MergeLogs("", logA, logB)
	if !merged.Equal(all) {
		t.Fatal("merged logs differ from the histogram of all calls")
	}
	res := LogResult(logA, logB)
	if res.Calls != 5000 || !res.Start.Equal(t0) || res.Duration != 11*time.Second {
		t.Errorf("log result: calls %d start %v duration %v", res.Calls, res.Start, res.Duration)
	}
	for _, p := range load.StandardPercentiles() {
		if res.Corrected.Percentile(p) != all.Percentile(p) {
			t.Errorf("p%v: %v, want %v", p, res.Corrected.Percentile(p), all.Percentile(p))
		}
	}
}

func TestLiveLogFromProgress(t *testing.T) {
	var b bytes.Buffer
	lw, err := NewLogWriter(&b, t0)
	if err != nil {
		t.Fatal(err)
	}
	h := load.NewHistogram()
	h.Record(1500 * time.Microsecond)
	for i := range 3 {
		if err := lw.WriteInterval(time.Duration(i)*time.Second, time.Second, h, nil); err != nil {
			t.Fatal(err)
		}
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 6 || !strings.HasPrefix(lines[5], "2.000,1.000,1.500,HIST") {
		t.Errorf("log:\n%s", b.String())
	}
}

func TestReadLogErrors(t *testing.T) {
	bad := []string{
		"#[StartTime: x (seconds since epoch)]\n",
		"0.0,1.0,2.0\n",
		"a,1.0,2.0,HISTFAAA\n",
		"0.0,1.0,2.0,!!!\n",
		"Tag=x\n",
	}
	for _, in := range bad {
		_, err := ReadLog(strings.NewReader(in))
		if err == nil || !strings.HasPrefix(err.Error(), "report: log line 1: ") {
			t.Errorf("ReadLog(%q) error = %v", in, err)
		}
	}
}

// TestLogReadByHdrHistogram checks the log reads with hdrhistogram-go's
// own HistogramLogReader: tags, timestamps and counts.
func TestLogReadByHdrHistogram(t *testing.T) {
	r := ramp()
	var b bytes.Buffer
	if err := WriteLog(&b, r); err != nil {
		t.Fatal(err)
	}
	rd := hdr.NewHistogramLogReader(&b)
	var tags []string
	var corrected int64
	for range 10 {
		h, err := rd.NextIntervalHistogram()
		if err != nil {
			t.Fatal(err)
		}
		if h == nil {
			break
		}
		tags = append(tags, h.Tag())
		if h.Tag() == "" {
			corrected += h.TotalCount()
		}
	}
	if strings.Join(tags, ",") != ",service,,service" || corrected != r.Calls {
		t.Errorf("tags %q, corrected count %d; want 2 untagged and 2 service, %d calls", tags, corrected, r.Calls)
	}
}
