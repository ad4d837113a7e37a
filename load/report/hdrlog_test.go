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
	if !log.Start.Equal(t0) || len(log.Intervals) != 5 || log.Duration != r.Duration {
		t.Fatalf("start %v, %d intervals, duration %v", log.Start, len(log.Intervals), log.Duration)
	}
	iv := log.Intervals[2]
	if iv.Tag != "" || iv.At != 10*time.Second || iv.Length != 10*time.Second || iv.Max != 160127*time.Microsecond {
		t.Errorf("interval 3: %+v", iv)
	}
	if log.Intervals[3].Tag != ServiceTag {
		t.Errorf("interval 4 tag %q", log.Intervals[3].Tag)
	}
	if log.Intervals[4].Tag != FailedTag {
		t.Errorf("interval 5 tag %q", log.Intervals[4].Tag)
	}
	if !log.Merged("").Equal(r.Corrected) || !log.Merged(ServiceTag).Equal(r.Service) || !log.Merged(FailedTag).Equal(r.Failed) {
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
	if strings.Join(tags, ",") != ",service,,service,failed" || corrected != r.Successes() {
		t.Errorf("tags %q, corrected count %d; want 2 untagged, 2 service and 1 failed, %d calls", tags, corrected, r.Successes())
	}
}

// A report of a run's log agrees with the run: the same calls, errors,
// duration and rate, though the log's last interval runs past the measured
// time (calls that ended in the drain).
func TestLogResultAgreesWithRun(t *testing.T) {
	run := stepResult(t0, 100, 1000, time.Millisecond, 10)
	var b bytes.Buffer
	lw, err := NewLogWriter(&b, run.Start)
	if err != nil {
		t.Fatal(err)
	}
	// Two intervals as a live run writes them, the second into the drain.
	check := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	check(lw.WriteInterval(0, 9*time.Second, run.Corrected, run.Service))
	check(lw.WriteFailed(0, 9*time.Second, run.Failed))
	check(lw.WriteInterval(9*time.Second, 3*time.Second+260*time.Millisecond, load.NewHistogram(), load.NewHistogram()))
	check(lw.WriteDuration(run.Duration))
	log, err := ReadLog(&b)
	check(err)
	got := LogResult(log)
	if got.Calls != run.Calls || got.Errors != run.Errors || got.Duration != run.Duration || got.Rate() != run.Rate() {
		t.Errorf("log: %d calls, %d errors, %v, %.2f/s; run: %d calls, %d errors, %v, %.2f/s",
			got.Calls, got.Errors, got.Duration, got.Rate(), run.Calls, run.Errors, run.Duration, run.Rate())
	}
}
